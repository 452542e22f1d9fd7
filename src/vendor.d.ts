/** Types of the packages the service uses that ship none. */

declare module 'unicode-script' {
  /**
   * UTS #39 §5.1: true when the string's resolved script set is empty (its characters' augmented
   * Script_Extensions sets have no script in common; Common and Inherited count as every script).
   */
  export function isMixedScript(text: string): boolean;
  /** The scripts (Unicode long names) of the string's characters. */
  export function unicodeScripts(text: string): Set<string>;
}

/**
 * What a PNG says of itself in its first bytes (PNG specification §5.2, §11.2.2): its signature
 * and the IHDR chunk's width, height, bit depth and colour type. Pure, so suites inside workerd
 * (where sharp cannot run) check cards as the Node suites do.
 */

const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

export interface PngHeader {
  width: number;
  height: number;
  bitDepth: number;
  /** 6: RGBA, 2: RGB. */
  colourType: number;
}

/** The header of a PNG, or undefined for bytes that are not one. */
export function pngHeader(bytes: Uint8Array): PngHeader | undefined {
  if (bytes.length < 33 || signature.some((byte, index) => bytes[index] !== byte)) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // The first chunk is IHDR: length 13, type, then width and height as 32-bit big-endian.
  if (view.getUint32(8) !== 13 || new TextDecoder().decode(bytes.subarray(12, 16)) !== 'IHDR')
    return undefined;
  return {
    width: view.getUint32(16),
    height: view.getUint32(20),
    bitDepth: bytes[24]!,
    colourType: bytes[25]!,
  };
}

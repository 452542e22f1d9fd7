/*
 * The little JavaScript of the check page and the share pages, served as a static asset with a
 * hashed name (a strict Content-Security-Policy allows no inline script; docs/pages.md). Plain
 * JavaScript for today's browsers, no build step. Every text comes from the page's own data
 * block (the server's catalog in the page's language); every value from the service is written
 * with textContent, never as markup.
 */
(function () {
  'use strict';

  const dataElement = document.getElementById('page-data');
  const data = dataElement ? JSON.parse(dataElement.textContent || '{}') : {};
  const lang = document.documentElement.lang || 'en';
  const plurals = new Intl.PluralRules(lang);

  /** The catalog's message with `{name}` filled in; a plural picks its form by `n`. */
  function t(key, params) {
    const values = params || {};
    const message = (data.messages || {})[key];
    if (message === undefined) return key;
    const text =
      typeof message === 'string'
        ? message
        : message[plurals.select(Number(values.n || 0))] || message.other;
    return text.replace(/\{(\w+)\}/g, (whole, name) =>
      name in values ? String(values[name]) : whole,
    );
  }

  function element(tag, attributes, children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes || {})) {
      if (value !== undefined && value !== null && value !== false) node.setAttribute(name, value);
    }
    for (const child of children || []) {
      node.append(typeof child === 'string' ? document.createTextNode(child) : child);
    }
    return node;
  }

  /** Server-rendered times are in UTC (one page for every reader); show them in the reader's zone. */
  function localiseTimes(root) {
    const format = new Intl.DateTimeFormat(lang, {
      year: 'numeric',
      month: 'long',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      timeZoneName: 'short',
    });
    for (const time of root.querySelectorAll('time[datetime]')) {
      const date = new Date(time.getAttribute('datetime'));
      if (!Number.isNaN(date.getTime())) {
        time.title = time.textContent;
        time.textContent = format.format(date);
      }
    }
  }

  /** Buttons with `data-copy="<id>"` copy that element's text. */
  function setUpCopyButtons(root) {
    for (const button of root.querySelectorAll('button[data-copy]')) {
      button.hidden = false;
      button.addEventListener('click', async () => {
        const source = document.getElementById(button.dataset.copy);
        if (!source) return;
        try {
          await navigator.clipboard.writeText(source.textContent);
        } catch {
          // No clipboard permission (an insecure origin): select the text for a manual copy.
          const range = document.createRange();
          range.selectNodeContents(source);
          const selection = window.getSelection();
          selection.removeAllRanges();
          selection.addRange(range);
          return;
        }
        const label = button.textContent;
        button.textContent = button.dataset.copied || label;
        setTimeout(() => {
          button.textContent = label;
        }, 1500);
      });
    }
  }

  localiseTimes(document);
  setUpCopyButtons(document);
  const form = document.getElementById('check-form');
  if (form) setUpCheckForm(form);

  function setUpCheckForm(form) {
    const base = data.base;
    const input = document.getElementById('target');
    const label = document.getElementById('target-label');
    const hint = document.getElementById('tool-hint');
    const submit = document.getElementById('submit');
    const quota = document.getElementById('quota');
    const formError = document.getElementById('form-error');
    const captchaBox = document.getElementById('captcha');
    const outcome = document.getElementById('outcome');
    // Each tool's body field, check paths and button text, from its definition (check-page.ts).
    const tools = data.tools || {};
    const captcha = { widget: undefined, api: undefined, token: '', required: false };
    let statusRequest = 0;

    const tool = () => form.elements.namedItem('tool').value;

    /** The fields of one tool (the mail check's DKIM selectors), shown while it is chosen. */
    const toolFields = [...form.querySelectorAll('[data-tool]')];

    /** Each shown field's words, split at commas and spaces, as the list its data-body-list names. */
    function toolFieldValues(name) {
      const values = {};
      for (const field of toolFields.filter((each) => each.dataset.tool === name)) {
        for (const input of field.querySelectorAll('[data-body-list]')) {
          const words = input.value.split(/[\s,]+/).filter((word) => word !== '');
          if (words.length > 0) values[input.dataset.bodyList] = words;
        }
      }
      return values;
    }

    function showTool() {
      const name = tool();
      for (const field of toolFields) field.hidden = field.dataset.tool !== name;
      label.textContent = t(`tool.${name}.label`);
      hint.textContent = t(`tool.${name}.hint`);
      input.placeholder = t(`tool.${name}.placeholder`);
      submit.textContent = t(tools[name].submit);
      const url = new URL(window.location.href);
      url.searchParams.set('tool', name);
      window.history.replaceState(null, '', url);
      refreshStatus(name);
    }

    async function refreshStatus(name) {
      const request = ++statusRequest;
      try {
        const response = await fetch(`${base}/${name}/v1/status`, {
          headers: { Accept: 'application/json' },
        });
        const status = await response.json();
        if (request === statusRequest) applyQuota(status);
      } catch {
        // The form still works; the POST will say what is wrong.
      }
    }

    /** Every status and every POST answer carries the quota fields. */
    function applyQuota(status) {
      // A quota says nothing while no check can run: a tool that needs no list runs meanwhile.
      if (status.configured === false && tools[tool()]?.needsLists !== false) {
        quota.textContent = '';
      } else if (typeof status.dailyRemaining === 'number') {
        quota.textContent = t('check.remaining', { n: status.dailyRemaining });
      }
      captcha.required = status.captchaRequired === true;
      if (captcha.required && status.siteKey) showCaptcha(status.siteKey);
      else captchaBox.hidden = true;
    }

    function loadScript(src) {
      return new Promise((resolve, reject) => {
        const script = element('script', { src, async: '' });
        script.addEventListener('load', resolve);
        script.addEventListener('error', reject);
        document.head.append(script);
      });
    }

    async function showCaptcha(siteKey) {
      captchaBox.hidden = false;
      if (captcha.widget !== undefined || !data.captcha) return;
      captcha.widget = null;
      try {
        if (!window[data.captcha.global]) await loadScript(data.captcha.script);
        captcha.api = window[data.captcha.global];
        captcha.widget = captcha.api.render(captchaBox, {
          sitekey: siteKey,
          hl: lang,
          language: lang,
          callback: (token) => {
            captcha.token = token;
            formError.hidden = true;
          },
        });
      } catch {
        captcha.widget = undefined;
        showError(formError, { code: 'network' });
      }
    }

    /** Whether a POST would lack the captcha the service asks for; if so, says so in `where`. */
    function captchaMissing(where) {
      if (!captcha.required || captcha.token) return false;
      where.textContent = t('check.captcha');
      where.hidden = false;
      return true;
    }

    /** A captcha token is good for one check: after each POST the widget starts afresh. */
    function resetCaptcha() {
      captcha.token = '';
      if (captcha.api && captcha.widget !== undefined && captcha.widget !== null) {
        try {
          captcha.api.reset(captcha.widget);
        } catch {
          // A widget that cannot reset is simply solved again.
        }
      }
    }

    function showError(where, body) {
      const code = body && typeof body.code === 'string' ? body.code : 'other';
      const known = (data.messages || {})[`error.${code}`] !== undefined;
      const text = known ? t(`error.${code}`) : t('error.other');
      // A detail for the operator (a resolver, a variable) is not the reader's: the message alone.
      // The API's detail is English (docs/pages.md, "Languages"): other pages show the message alone.
      const forOperator = (data.operatorCodes || []).includes(code);
      const detail =
        body && typeof body.error === 'string' && !forOperator && lang === 'en' ? body.error : '';
      where.replaceChildren(
        element('strong', {}, [text]),
        ...(detail ? [' ', element('span', { class: 'detail', lang: 'en' }, [`(${detail})`])] : []),
      );
      where.hidden = false;
    }

    async function post(path, body) {
      const headers = { 'Content-Type': 'application/json', Accept: 'application/json' };
      if (captcha.token) body['smart-token'] = captcha.token;
      try {
        const response = await fetch(`${base}/${path}`, {
          method: 'POST',
          headers,
          body: JSON.stringify(body),
        });
        const answer = await response.json().catch(() => ({ code: 'internal' }));
        return { ok: response.ok, body: answer };
      } catch {
        return { ok: false, body: { code: 'network' } };
      } finally {
        resetCaptcha();
      }
    }

    /** The share page's result section, in this page's language: one renderer for both pages. */
    async function resultSection(name, token) {
      const response = await fetch(
        `${base}/${name}/v1/share/${encodeURIComponent(token)}?lang=${lang}`,
        { headers: { Accept: 'text/html' } },
      );
      const page = new DOMParser().parseFromString(await response.text(), 'text/html');
      const section = page.getElementById('result');
      if (!section) throw new Error('no result section');
      const imported = document.importNode(section, true);
      imported.removeAttribute('id');
      localiseTimes(imported);
      return imported;
    }

    function shareLinks(name, token) {
      const share = `${base}/${name}/v1/share/${encodeURIComponent(token)}`;
      const links = [
        [`${share}?lang=${lang}`, 'share.page'],
        [`${share}/badge.svg?lang=${lang}`, 'share.badge'],
        [`${share}/card?lang=${lang}`, 'share.card'],
        [`${base}/${name}/v1/${encodeURIComponent(token)}`, 'share.json'],
      ];
      return element('nav', { class: 'share-links', 'aria-label': t('share.links') }, [
        element('h2', {}, [t('share.links')]),
        element(
          'ul',
          {},
          links.map(([href, key]) =>
            element('li', {}, [element('a', { href, 'data-link': key.split('.')[1] }, [t(key)])]),
          ),
        ),
      ]);
    }

    async function showResult(where, name, answer) {
      const parts = [];
      if (answer.from_cache) parts.push(element('p', { class: 'note' }, [t('check.cached')]));
      try {
        parts.push(await resultSection(name, answer.token));
      } catch {
        parts.push(element('p', { class: 'error' }, [t('error.other')]));
      }
      parts.push(shareLinks(name, answer.token));
      where.replaceChildren(element('section', { class: 'panel outcome' }, parts));
    }

    /** An IPv6 address may break after its colons, as the server writes it (result-view.ts). */
    function addressParts(address) {
      return address
        .split(':')
        .flatMap((group, index, groups) =>
          index === groups.length - 1 ? [group] : [`${group}:`, element('wbr')],
        );
    }

    /**
     * The addresses a first check found (a pool's), to pick and post to the tool's second;
     * `onChecked` hears which addresses a check covered, once its result is shown.
     */
    function addressPicker(answer, name, path, onChecked) {
      const field = tools[name].field;
      const max = data.poolMaxIps;
      // Nothing ticked until the caller chooses (issue 25, item 7).
      const boxes = answer.ips.map((ip) =>
        element('input', { type: 'checkbox', name: 'ip', value: ip }),
      );
      const list = element(
        'ul',
        { class: 'choices' },
        boxes.map((box) =>
          element('li', {}, [
            element('label', {}, [box, element('span', {}, addressParts(box.value))]),
          ]),
        ),
      );
      const error = element('p', { class: 'error', role: 'alert', hidden: '' });
      const checked = element('div', { class: 'pool-check' });
      const checkButton = element('button', { type: 'button', id: 'check-selected' });
      const selectFirst = element(
        'button',
        { type: 'button', class: 'secondary', id: 'pick-all' },
        [
          boxes.length <= max
            ? t('check.pickEvery', { n: boxes.length })
            : t('check.pickAll', { max }),
        ],
      );
      /** The button says what it will do: how many addresses it checks, or that none is chosen. */
      function sayWhatItDoes() {
        const n = boxes.filter((box) => box.checked).length;
        checkButton.textContent = n === 0 ? t('check.pickSome') : t('check.checkChosen', { n });
        checkButton.disabled = n === 0 || n > max;
      }
      sayWhatItDoes();
      list.addEventListener('change', sayWhatItDoes);
      const clear = element('button', { type: 'button', class: 'secondary' }, [
        t('check.pickNone'),
      ]);
      selectFirst.addEventListener('click', () => {
        boxes.forEach((box, index) => (box.checked = index < max));
        sayWhatItDoes();
      });
      clear.addEventListener('click', () => {
        boxes.forEach((box) => (box.checked = false));
        sayWhatItDoes();
      });
      checkButton.addEventListener('click', async () => {
        const ips = boxes.filter((box) => box.checked).map((box) => box.value);
        error.hidden = true;
        if (ips.length === 0 || ips.length > max) {
          error.textContent = t('check.pick', { max });
          error.hidden = false;
          return;
        }
        if (captchaMissing(error)) return;
        checkButton.disabled = true;
        checkButton.textContent = t('check.busy');
        const { ok, body } = await post(path, { [field]: answer[field], ips });
        applyQuota(body);
        sayWhatItDoes();
        if (!ok) {
          showError(error, body);
          return;
        }
        await showResult(checked, name, body);
        onChecked(ips);
      });
      if (answer.ips.length === 0) return element('div');
      return element('section', { class: 'panel picker' }, [
        element('h2', {}, [t('check.pick', { max })]),
        list,
        element('div', { class: 'actions' }, [checkButton, selectFirst, clear]),
        error,
        checked,
      ]);
    }

    /**
     * After a pool check, the discovery above it says which addresses were checked instead of
     * "none checked yet", and gives up its share links: the page has one share block, the one of
     * the result the caller is looking at (issue 25, item 7).
     */
    function markChecked(discovery, found, ips) {
      const sentence = discovery.querySelector('.sentence');
      if (sentence) {
        sentence.textContent = `${t('check.foundChecked', { n: found, checked: ips.length })}.`;
      }
      let list = discovery.querySelector('.checked-addresses');
      if (!list) {
        list = element('p', { class: 'checked-addresses' });
        if (sentence) sentence.after(list);
        else discovery.append(list);
      }
      list.textContent = t('check.checkedAddresses', { ips: ips.join(', ') });
      for (const links of discovery.querySelectorAll('.share-links')) links.remove();
    }

    /** An interval as people say it: the server's words for those the form offers. */
    function intervalWords(seconds) {
      const words = (data.watchIntervals || {})[String(seconds)];
      return words === undefined ? t('interval.seconds', { n: seconds }) : words;
    }

    /** The kinds a watch has (src/watch/schemas.ts): an IP, a domain or a mail result offers one. */
    const watchKinds = ['ip', 'domain', 'mail'];

    /** A labelled value with a copy button (set up as the share page's snippets are). */
    function copyable(id, label, value) {
      return element('div', { class: 'snippet' }, [
        element('div', { class: 'snippet-head' }, [
          element('strong', {}, [label]),
          element(
            'button',
            {
              type: 'button',
              class: 'secondary',
              'data-copy': id,
              'data-copied': t('share.copied'),
            },
            [t('share.copy')],
          ),
        ]),
        element('pre', {}, [element('code', { id }, [value])]),
      ]);
    }

    /**
     * "Watch this address" / "Watch this domain" under an IP or domain result
     * (docs/pages.md#check-page): posts watch/v1 for the target just checked, with the interval
     * chosen, the webhook URL and its format if one is given, the e-mail address where the form
     * asks for one, and shows the live page, the badge snippet, and the manage key and webhook
     * secret, which are shown once.
     */
    function setUpWatchOffer() {
      const section = document.getElementById('watch');
      const watchForm = document.getElementById('watch-form');
      const title = document.getElementById('watch-title');
      const hint = document.getElementById('watch-hint');
      const webhook = document.getElementById('watch-webhook');
      const interval = document.getElementById('watch-interval');
      const format = document.getElementById('watch-format');
      // Rendered only where the service sends e-mail (docs/pages.md#check-page).
      const email = document.getElementById('watch-email');
      const button = document.getElementById('watch-submit');
      const error = document.getElementById('watch-error');
      const created = document.getElementById('watch-created');
      let chosen;

      function hide() {
        section.hidden = true;
      }

      function offer(kind, target) {
        // No watch is offered while the list checks are not ready: its first check needs them.
        if (!watchKinds.includes(kind) || data.watching === false) return hide();
        chosen = { kind, target };
        title.textContent = t(`watch.offer.${kind}`);
        // What a watch of this kind tells of: listings, or a mail setup's rules and servers.
        hint.textContent = t(kind === 'mail' ? 'watch.offer.hint.mail' : 'watch.offer.hint');
        error.hidden = true;
        created.replaceChildren();
        watchForm.hidden = false;
        section.hidden = false;
      }

      function showCreated(watch) {
        const page = `${watch.page_url}?lang=${lang}`;
        const badge = `${watch.badge_url}?lang=${lang}`;
        const parts = [
          element('p', {}, [
            t('watch.created', {
              target: watch.target,
              interval: intervalWords(watch.interval_s),
            }),
          ]),
          element('p', {}, [element('a', { href: page, id: 'watch-page' }, [t('watch.pageLink')])]),
          copyable('watch-badge', t('watch.badge'), `[![${watch.target}](${badge})](${page})`),
          // The keys are shown once: the warning comes first, the keys under it. Without a
          // webhook there is no secret, and the warning names the manage key alone.
          element('p', { class: 'warning' }, [
            element('strong', {}, [
              t(watch.webhook_secret ? 'watch.shownOnce' : 'watch.shownOnceKey'),
            ]),
          ]),
          copyable('watch-manage-key', t('watch.manageKey'), watch.manage_key),
        ];
        if (watch.webhook_secret) {
          parts.push(copyable('watch-secret', t('watch.secret'), watch.webhook_secret));
        }
        const answer = element('div', { class: 'watch-created' }, parts);
        setUpCopyButtons(answer);
        created.replaceChildren(answer);
        watchForm.hidden = true;
      }

      watchForm.addEventListener('submit', async (event) => {
        event.preventDefault();
        error.hidden = true;
        if (captchaMissing(error)) return;
        const url = webhook.value.trim();
        const address = email ? email.value.trim() : '';
        button.disabled = true;
        button.textContent = t('watch.busy');
        const { ok, body } = await post('watch/v1', {
          target: chosen.target,
          kind: chosen.kind,
          interval_s: Number(interval.value),
          // A format names how the webhook is spoken to: sent only with a webhook.
          ...(url ? { webhook_url: url } : {}),
          ...(url && format.value ? { webhook_format: format.value } : {}),
          ...(address ? { email: address } : {}),
        });
        applyQuota(body);
        button.disabled = false;
        button.textContent = t('watch.start');
        if (!ok) {
          showError(error, body);
          return;
        }
        showCreated(body);
      });

      return { hide, offer };
    }

    const watchOffer = setUpWatchOffer();

    form.addEventListener('change', (event) => {
      if (event.target.name === 'tool') showTool();
    });

    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const name = tool();
      const value = input.value.trim();
      formError.hidden = true;
      if (value === '') {
        input.focus();
        return;
      }
      if (captchaMissing(formError)) return;
      submit.disabled = true;
      submit.textContent = t('check.busy');
      outcome.replaceChildren();
      watchOffer.hide();
      const [firstCheck, pickedCheck] = tools[name].checks;
      const { ok, body } = await post(firstCheck, {
        [tools[name].field]: value,
        ...toolFieldValues(name),
      });
      applyQuota(body);
      submit.disabled = false;
      submit.textContent = t(tools[name].submit);
      if (!ok) {
        showError(formError, body);
        return;
      }
      const result = element('div');
      outcome.replaceChildren(result);
      await showResult(result, name, body);
      if (pickedCheck) {
        outcome.append(
          addressPicker(body, name, pickedCheck, (ips) =>
            markChecked(result, body.ips.length, ips),
          ),
        );
      } else watchOffer.offer(name, value);
    });

    form.hidden = false;
    showTool();
  }
})();

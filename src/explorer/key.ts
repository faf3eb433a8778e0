import type { Client } from './api.js';
import { h } from './dom.js';

/**
 * Asks for the API key (once: it is kept in this browser's localStorage, sent only to this
 * service, in X-API-Key) and checks it against the API before keeping it.
 */
export function askKey(client: Client, reason = ''): Promise<void> {
  return new Promise((resolve) => {
    const input = h('input', { type: 'password', id: 'api-key', placeholder: 'mds_…', autocomplete: 'off', size: 48 });
    const error = h('p', { class: 'error' }, reason);
    const form = h(
      'form',
      { class: 'key-form' },
      h('h2', {}, 'API 密钥 · Your API key'),
      h(
        'p',
        {},
        '本页的所有数据都用您的密钥取自本服务的API；密钥只存于本浏览器。用 ',
        h('code', {}, 'npx mds keys create --name me'),
        ' 创建一个。',
      ),
      h('p', { class: 'hint' }, 'The explorer draws everything from this service\u2019s API, with your key, kept in this browser only.'),
      input,
      h('button', { type: 'submit' }, '使用此密钥'),
      error,
    );
    const dialog = h('dialog', { class: 'key-dialog' }, form);
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      const key = input.value.trim();
      if (!key) return;
      const previous = client.key;
      client.key = key;
      try {
        await client.get('/markets');
        dialog.close();
        dialog.remove();
        resolve();
      } catch (err) {
        client.key = previous;
        error.textContent = (err as Error).message;
      }
    });
    dialog.addEventListener('cancel', (e) => e.preventDefault());
    document.body.append(dialog);
    dialog.showModal();
    input.focus();
  });
}

import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Short-lived stream tokens (docs/api.md, "Events"): a browser's EventSource cannot send the
 * X-API-Key header, so `mds keys token` issues `mdt_<key id>_<expiry, epoch s>_<HMAC-SHA256>`
 * signed with TOKEN_SECRET, accepted as `?token=` on GET /api/v1/events only. It carries the key's
 * id, never the key: the key is checked live (not revoked) at connect, as a header's is.
 */
const TOKEN_RE = /^mdt_([A-Za-z0-9]{8})_(\d{1,12})_([A-Za-z0-9_-]{43})$/;

/** The longest a token may live (s): a day. */
export const MAX_TOKEN_TTL_S = 86_400;

const mac = (secret: string, id: string, exp: number) => createHmac('sha256', secret).update(`mdt\0${id}\0${exp}`).digest('base64url');

/** A token for key `id` valid until `expires` (epoch s). */
export function signToken(secret: string, id: string, expires: number): string {
  return `mdt_${id}_${expires}_${mac(secret, id, expires)}`;
}

/** The key id a token names, or why it is refused (malformed, forged, expired at `now` ms). */
export function verifyToken(secret: string, token: string, now = Date.now()): { id: string } | { refused: string } {
  const m = TOKEN_RE.exec(token);
  if (!m) return { refused: 'is not a token issued by `mds keys token`' };
  const [, id, exp] = m;
  const want = Buffer.from(mac(secret, id, Number(exp)));
  if (!timingSafeEqual(want, Buffer.from(m[3]))) return { refused: 'is not signed by this server (forged, or TOKEN_SECRET changed)' };
  if (Number(exp) * 1000 <= now) return { refused: `expired at ${new Date(Number(exp) * 1000).toISOString()}` };
  return { id };
}

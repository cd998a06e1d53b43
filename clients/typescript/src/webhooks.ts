/**
 * Checking a webhook's `Spitlog-Signature` (docs/webhooks.md in the repository):
 * `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` under the game's secret
 * (`whsec_...`, shown once when the game is created) or the deployment's. Web Crypto
 * (Node 20+, browsers, workers): the MAC is checked by `crypto.subtle.verify`, in
 * constant time.
 */

export interface VerifyOptions {
  /** a signature made further than this from `now` is refused: a replay (300 s) */
  toleranceS?: number;
  /** the time to check against, in seconds since the epoch (the clock's) */
  now?: number;
}

const encoder = new TextEncoder();

function hexBytes(hex: string): Uint8Array<ArrayBuffer> | undefined {
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) return undefined;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** Whether `header` (the `Spitlog-Signature` received) signs `body` (the raw body
 * received, before any JSON parsing: a string or its bytes) under `secret`, made within
 * `toleranceS` of `now`. */
export async function verifyWebhook(
  secret: string,
  header: string,
  body: string | Uint8Array,
  options: VerifyOptions = {},
): Promise<boolean> {
  const fields = new Map<string, string>();
  for (const part of header.split(",")) {
    const at = part.indexOf("=");
    if (at > 0) fields.set(part.slice(0, at).trim(), part.slice(at + 1).trim());
  }
  const t = Number(fields.get("t"));
  const mac = hexBytes(fields.get("v1") ?? "");
  if (!/^\d+$/.test(fields.get("t") ?? "") || !mac) return false;
  const now = options.now ?? Date.now() / 1000;
  if (Math.abs(now - t) > (options.toleranceS ?? 300)) return false;
  const raw = typeof body === "string" ? encoder.encode(body) : body;
  const signed = new Uint8Array([...encoder.encode(`${t}.`), ...raw]);
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret),
    { name: "HMAC", hash: "SHA-256" }, false, ["verify"]);
  return crypto.subtle.verify("HMAC", key, mac, signed);
}

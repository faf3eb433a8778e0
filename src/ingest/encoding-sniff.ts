/**
 * The text encoding of a vendor file that does not say (`mds ingest --tushare`: a folder of
 * exports, some written by pandas in UTF-8, some saved as GBK on Windows). Decided by the file's
 * first non-ASCII text: the 64 KiB from its first byte above 0x7F are UTF-8, else GBK, else
 * GB18030 (read strictly, as ingest reads them); a file whose first SNIFF_LIMIT bytes are all
 * ASCII (numbers and codes alone: daily, adj_factor, …) is UTF-8, which ASCII is in every one of
 * them. A file that is none of them is UTF-8 too, and refused at its first bad line when read.
 */
import { isAscii } from 'node:buffer';
import { byteStream, IngestIOError, sourceInfo, strictDecoder, type Encoding } from './source.js';

/** Bytes (decompressed) looked through for the first non-ASCII one. */
export const SNIFF_LIMIT = 4 << 20;
/** Bytes from the first non-ASCII one that decide. */
const SAMPLE = 64 << 10;

const decodes = (encoding: Encoding, b: Uint8Array) => {
  try {
    // As a stream: a character cut off by the sample's end is not an error.
    strictDecoder(encoding).decode(b, { stream: true });
    return true;
  } catch {
    return false;
  }
};

/** The first non-ASCII text of `path` (gzip too), up to SAMPLE bytes; null when its first SNIFF_LIMIT bytes are ASCII. */
async function firstNonAscii(path: string): Promise<Uint8Array | null> {
  let info;
  try {
    info = await sourceInfo(path);
  } catch (e) {
    throw new IngestIOError(`${path}: ${(e as Error).message}`);
  }
  const { stream } = byteStream(path, info.gzip);
  let seen = 0;
  let sample: Buffer | null = null;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (sample === null) {
        if (isAscii(chunk)) {
          seen += chunk.length;
          if (seen >= SNIFF_LIMIT) return null;
          continue;
        }
        let i = 0;
        while (chunk[i] < 0x80) i++;
        sample = chunk.subarray(i);
      } else sample = Buffer.concat([sample, chunk]);
      if (sample.length >= SAMPLE) break;
    }
  } catch (e) {
    throw new IngestIOError(`${path}: ${(e as Error).message}`);
  } finally {
    stream.destroy();
  }
  return sample === null ? null : sample.subarray(0, SAMPLE);
}

/** The encoding `path` is read in (see above). */
export async function sniffEncoding(path: string): Promise<Encoding> {
  const sample = await firstNonAscii(path);
  if (sample === null) return 'utf8';
  for (const e of ['utf8', 'gbk', 'gb18030'] as const) if (decodes(e, sample)) return e;
  return 'utf8';
}

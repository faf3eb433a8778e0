/**
 * The page's early script (a few KB, run from the page's head before the main script has
 * arrived): on a chart's URL, with a key kept, it asks at once for what the first chart needs,
 * the instrument's search (its name and kind) and its first page of bars, so that both are on
 * their way while the main script (the chart library, about 230 KB) loads. The main script takes
 * the answers by their URLs (api.ts Client.fetchJson); the bars are asked for by the kind the id
 * most likely is (route-state.ts likelyKind), and an answer of a kind the search does not confirm
 * is left unused.
 */
import { askEarly, KEY_STORAGE } from './api.js';
import { barsUrl } from './chart-data.js';
import { kindPath, searchUrl } from './instruments.js';
import { chartState, likelyKind, parseRoute } from './route-state.js';

const key = localStorage.getItem(KEY_STORAGE);
const { parts, query } = parseRoute(location.hash);
if (key && parts[0] === 'chart' && parts[1]) {
  const id = parts[1];
  // What resolve (instruments.ts) asks.
  askEarly(searchUrl(id, 1), key);
  askEarly(barsUrl(`${kindPath(likelyKind(id))}/${id}`, chartState(query), null), key);
}

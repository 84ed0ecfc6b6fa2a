/**
 * The hierarchy plan of M items: a forest of trees of depth 1 to 12 and
 * fan-outs from 1 to 1,000, items numbered in depth-first pre-order (a tree's
 * items are contiguous, parents come before their children). Only small typed
 * arrays (~20 bytes an item), never item contents: every thread computes the
 * same plan from (seed, M) in well under a second for a million items.
 *
 * Most trees are single objects or small books (depth 1–2); some are
 * multi-volume works (3), newspapers (4) and archival holdings (3–12, a few
 * deep); a few periodicals are wide (100–1,000 issues under one root). Tree 0
 * is always an archive of depth exactly 12 (when M ≥ 12), tree 1 a periodical
 * with exactly 1,000 issues (when M ≥ 1,013).
 */
import { Rng } from './rng.js';

export enum Kind {
  Single = 0,
  Monograph = 1,
  MultiVolume = 2,
  Periodical = 3,
  Newspaper = 4,
  Archive = 5,
}

export const KIND_NAMES = ['single', 'monograph', 'multivolume', 'periodical', 'newspaper', 'archive'] as const;

/** Share of trees of each kind (by tree, not by item). */
const KIND_WEIGHTS = [0.9, 0.06, 0.012, 0.003, 0.001, 0.024];
/** Archive depths 3..12 and their weights: most shallow, a few deep. */
const ARCHIVE_DEPTHS = [3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
const ARCHIVE_DEPTH_WEIGHTS = [15, 25, 20, 14, 9, 6, 4, 3, 2, 2];
/** No tree larger than this (the forced wide periodical aside). */
const MAX_TREE = 4000;

const STREAM_TREE = 2;

export const MAX_DEPTH = 12;

export interface Forest {
  items: number;
  parent: Int32Array; // -1 for roots
  depth: Uint8Array; // 1 for roots
  position: Int32Array; // 1-based among siblings
  prevSibling: Int32Array; // -1 for a first child
  children: Int32Array;
  tree: Int32Array;
  /** Per tree: first item and kind. */
  treeStart: number[];
  treeKind: Kind[];
  treeDepth: number[];
}

function weighted(rng: Rng, weights: readonly number[]): number {
  let total = 0;
  for (const w of weights) total += w;
  let u = rng.next() * total;
  for (let i = 0; i < weights.length; i++) {
    u -= weights[i]!;
    if (u < 0) return i;
  }
  return weights.length - 1;
}

/** Children of a node at `level` (1 = root) of a tree; `leftmost` nodes must go on to the tree's depth. */
type FanOut = (level: number, leftmost: boolean) => number;

interface Shape {
  kind: Kind;
  depth: number;
  fanOut: FanOut;
  cap: number;
}

function shape(rng: Rng, t: number, remaining: number): Shape {
  if (t === 0 && remaining >= 2) {
    // Small enough to leave room for other trees in small sets.
    return { ...archive(rng, Math.min(MAX_DEPTH, remaining)), cap: Math.max(MAX_DEPTH, Math.min(400, Math.floor(remaining / 4))) };
  }
  if (t === 1 && remaining >= 1013) {
    // The widest: one periodical with exactly 1,000 issues, a few with articles.
    return { kind: Kind.Periodical, depth: 3, cap: 1013, fanOut: (level, leftmost) => (level === 1 ? 1000 : leftmost ? 12 : 0) };
  }
  const kind = weighted(rng, KIND_WEIGHTS) as Kind;
  switch (kind) {
    case Kind.Single:
      return { kind, depth: 1, cap: 1, fanOut: () => 0 };
    case Kind.Monograph:
      return { kind, depth: 2, cap: MAX_TREE, fanOut: () => rng.skewed(1, 60, 2.5) };
    case Kind.MultiVolume:
      return {
        kind,
        depth: 3,
        cap: MAX_TREE,
        fanOut: (level, leftmost) =>
          level === 1 ? rng.skewed(2, 30, 1.5) : leftmost ? rng.between(1, 25) : rng.chance(0.3) ? 0 : rng.between(1, 25),
      };
    case Kind.Periodical: {
      const issues = rng.logUniform(20, 1000);
      const articles = rng.chance(0.4);
      return { kind, depth: articles ? 3 : 2, cap: MAX_TREE, fanOut: (level) => (level === 1 ? issues : rng.between(0, 6)) };
    }
    case Kind.Newspaper: {
      const years = rng.between(1, 6);
      return {
        kind,
        depth: 4,
        cap: MAX_TREE,
        fanOut: (level, leftmost) => (level === 1 ? years : level === 2 ? 12 : leftmost ? rng.between(1, 26) : rng.between(0, 26)),
      };
    }
    case Kind.Archive:
    default:
      return archive(rng, ARCHIVE_DEPTHS[weighted(rng, ARCHIVE_DEPTH_WEIGHTS)]!);
  }
}

/** Bestand → Gliederung … → Serie → Unterserie → Archivale, depth d. */
function archive(rng: Rng, depth: number): Shape {
  return {
    kind: Kind.Archive,
    depth,
    cap: MAX_TREE,
    fanOut: (level, leftmost) => {
      if (level === depth - 1) return leftmost ? rng.skewed(1, 50, 2) : rng.skewed(0, 50, 2); // files in a series
      if (level === 1) return rng.between(1, depth > 6 ? 3 : 8);
      const n = depth > 6 ? rng.skewed(1, 3, 2) : rng.between(1, 4);
      return leftmost ? Math.max(1, n) : rng.chance(0.25) ? 0 : n; // some branches end early
    },
  };
}

export function planForest(items: number, seed: number): Forest {
  const f: Forest = {
    items,
    parent: new Int32Array(items),
    depth: new Uint8Array(items),
    position: new Int32Array(items),
    prevSibling: new Int32Array(items),
    children: new Int32Array(items),
    tree: new Int32Array(items),
    treeStart: [],
    treeKind: [],
    treeDepth: [],
  };
  let next = 0;
  for (let t = 0; next < items; t++) {
    const rng = Rng.for(seed, STREAM_TREE, t);
    const s = shape(rng, t, items - next);
    const budget = Math.min(s.cap, items - next);
    const start = next;
    let deepest = 0;
    const add = (parent: number, level: number, position: number, prev: number): number => {
      const i = next++;
      f.parent[i] = parent;
      f.depth[i] = level;
      f.position[i] = position;
      f.prevSibling[i] = prev;
      f.tree[i] = t;
      if (parent >= 0) f.children[parent]!++;
      if (level > deepest) deepest = level;
      return i;
    };
    // Depth-first, so the leftmost path reaches the full depth before the budget runs out.
    const build = (parent: number, level: number, position: number, prev: number, leftmost: boolean): number => {
      const i = add(parent, level, position, prev);
      if (level < s.depth) {
        const n = s.fanOut(level, leftmost);
        let last = -1;
        for (let k = 0; k < n && next - start < budget; k++) last = build(i, level + 1, k + 1, last, leftmost && k === 0);
      }
      return i;
    };
    build(-1, 1, 1, -1, true);
    f.treeStart.push(start);
    f.treeKind.push(s.kind);
    f.treeDepth.push(deepest);
  }
  return f;
}

"""The largest matching of a graph (Edmonds' blossoms), for a Swiss draw that cannot avoid every repeat.

A Swiss round pairs every competitor; the pairs that have not met are the edges of a graph. A draw
without a repeat is a perfect matching of that graph, and a draw with the fewest repeats is a largest
matching of it, the competitors it leaves over paired among themselves (each such match a repeat): so
the fewest repeats of a round are ``n / 2`` less the size of a largest matching. Odd cycles are why a
greedy pairing or a matching of two sides (a bipartite one) cannot say so: two triangles of
competitors that have not met cannot be paired without one repeat, which a bipartite search would miss.
Pure and stdlib only, as all of ``laws/``: O(n³) for n competitors, a few milliseconds for 60.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping


def largest_matching_size(vertices: Collection[int], edges: Mapping[int, Collection[int]]) -> int:
    """How many pairs a largest matching of the graph on ``vertices`` has; ``edges[v]`` are ``v``'s
    neighbours (those outside ``vertices`` are ignored)."""
    vs = sorted(vertices)
    index = {v: i for i, v in enumerate(vs)}
    n = len(vs)
    adj = [[index[w] for w in edges.get(v, ()) if w in index and w != v] for v in vs]
    match = [-1] * n
    size = 0
    for v in range(n):            # a greedy start: in a Swiss most are matched here, few paths are searched
        if match[v] == -1:
            w = next((w for w in adj[v] if match[w] == -1), -1)
            if w != -1:
                match[v], match[w] = w, v
                size += 1
    for root in range(n):
        if match[root] != -1:
            continue
        end, parent = _augmenting_path(root, adj, match)
        if end == -1:
            continue
        size += 1
        v = end
        while v != -1:            # flip the path's edges: every vertex on it is matched
            pv = parent[v]
            nxt = match[pv]
            match[v], match[pv] = pv, v
            v = nxt
    return size


def _augmenting_path(root: int, adj: list[list[int]], match: list[int]) -> tuple[int, list[int]]:
    """An unmatched vertex reached from ``root`` by alternating edges (odd cycles shrunk into their
    base as they are found), and each outer vertex's parent on the way; (-1, ...) when there is none."""
    n = len(adj)
    used = [False] * n
    parent = [-1] * n
    base = list(range(n))
    used[root] = True
    queue = [root]
    head = 0
    while head < len(queue):
        v = queue[head]
        head += 1
        for to in adj[v]:
            if base[v] == base[to] or match[v] == to:
                continue
            if to == root or (match[to] != -1 and parent[match[to]] != -1):
                # an odd cycle: shrink it into its base, every vertex in it becomes outer
                cur = _common_base(v, to, base, match, parent)
                blossom = [False] * n
                _mark(v, cur, to, base, match, parent, blossom)
                _mark(to, cur, v, base, match, parent, blossom)
                for i in range(n):
                    if blossom[base[i]]:
                        base[i] = cur
                        if not used[i]:
                            used[i] = True
                            queue.append(i)
            elif parent[to] == -1:
                parent[to] = v
                if match[to] == -1:
                    return to, parent
                used[match[to]] = True
                queue.append(match[to])
    return -1, parent


def _common_base(a: int, b: int, base: list[int], match: list[int], parent: list[int]) -> int:
    seen = [False] * len(base)
    while True:
        a = base[a]
        seen[a] = True
        if match[a] == -1:
            break
        a = parent[match[a]]
    while True:
        b = base[b]
        if seen[b]:
            return b
        b = parent[match[b]]


def _mark(v: int, cur: int, child: int, base: list[int], match: list[int], parent: list[int],
          blossom: list[bool]) -> None:
    while base[v] != cur:
        blossom[base[v]] = blossom[base[match[v]]] = True
        parent[v] = child
        child = match[v]
        v = parent[match[v]]

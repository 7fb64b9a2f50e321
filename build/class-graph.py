#!/usr/bin/env python3
"""The class graph of one Java package, as docs/decisions/0017-daemon-renovation.md counts it:
which top-level classes name which outside comments and strings (a nested type counts as its
class), the groups of classes that reach each other (cycles), and the floors (the longest chain
once each cycle is merged). Usage: build/class-graph.py PACKAGE_DIR [--edges]"""
import os, re, sys
d = sys.argv[1]
files = {f[:-5]: open(os.path.join(d, f)).read() for f in os.listdir(d) if f.endswith('.java') and f != 'package-info.java'}
def strip(s):
    # one pass, so that "//" or "/*" inside a string is no comment, and quotes inside a comment no string
    token = re.compile(r'//[^\n]*|/\*.*?\*/|"""(?:.|\n)*?"""|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
    return token.sub(lambda m: '""' if m.group(0)[0] in '"\'' else ' ', s)
edges = {c: set() for c in files}
for c, src in files.items():
    body = strip(src)
    for o in files:
        if o != c and re.search(r'\b' + o + r'\b', body):
            edges[c].add(o)
# Tarjan
index = {}; low = {}; st = []; on = set(); sccs = []; i = [0]
sys.setrecursionlimit(10000)
def sc(v):
    index[v] = low[v] = i[0]; i[0] += 1; st.append(v); on.add(v)
    for w in edges[v]:
        if w not in index:
            sc(w); low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = st.pop(); on.discard(w); comp.append(w)
            if w == v: break
        sccs.append(comp)
for v in edges:
    if v not in index: sc(v)
comp_of = {v: k for k, c in enumerate(sccs) for v in c}
floor = {}
def fl(k):
    if k in floor: return floor[k]
    floor[k] = 0
    deps = {comp_of[w] for v in sccs[k] for w in edges[v]} - {k}
    floor[k] = 1 + max((fl(x) for x in deps), default=0)
    return floor[k]
for k in range(len(sccs)): fl(k)
cyc = [sorted(c) for c in sccs if len(c) > 1]
print(f"classes {len(files)}, lines {sum(s.count(chr(10)) for s in files.values())}, edges {sum(len(e) for e in edges.values())}, floors {max(floor.values())}")
print(f"cycles (SCCs of more than one class): {len(cyc)}, classes in them: {sum(len(c) for c in cyc)}")
for c in cyc: print("  ", " ".join(c))
if '--edges' in sys.argv[2:]:
    for c in sorted(edges): print(c, '->', ' '.join(sorted(edges[c])))

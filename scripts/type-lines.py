#!/usr/bin/env python3
"""The lines of Swift types counted over their declaration and every extension (issue 29: no type
over about 400 lines). A block runs from its top-level `class|struct|enum|actor|extension NAME`
line (the `///` and attribute lines above it included) to the first `}` at column 0 after it.

  scripts/type-lines.py                       # the 15 largest types under Sources, largest first
  scripts/type-lines.py --most 40 Sources/FrugalHarness
  scripts/type-lines.py --type RunSession     # one type's lines, file by file, and its total
"""
import argparse, collections, glob, re, subprocess

parser = argparse.ArgumentParser()
parser.add_argument("--type", help="count this type only, file by file")
parser.add_argument("--most", type=int, default=15, help="how many types to list (default 15)")
parser.add_argument("dirs", nargs="*", default=["Sources"])
args = parser.parse_args()
files = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "--"] + [d + "/*.swift" for d in args.dirs],
                       capture_output=True, text=True).stdout.split()
if not files:  # outside a git checkout
    files = sorted(f for d in args.dirs for f in glob.glob(d + "/**/*.swift", recursive=True))
decl = re.compile(r"^(?:(?:public|internal|fileprivate|private|final|open|package)\s+)*(?:class|struct|enum|actor|extension)\s+([A-Za-z_][\w.]*)\b")
sizes, by_file = collections.Counter(), collections.Counter()
for path in files:
    lines = open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        match = decl.match(lines[i])
        if match:
            start = i
            while start > 0 and (lines[start - 1].startswith("///") or lines[start - 1].startswith("@")):
                start -= 1
            end = i
            while end < len(lines) and lines[end] != "}" and not (end == i and lines[end].rstrip().endswith("}")):
                end += 1
            sizes[match.group(1)] += end - start + 1
            if match.group(1) == args.type:
                by_file[path] += end - start + 1
            i = end
        i += 1
if args.type:
    for path, count in sorted(by_file.items()):
        print(f"{count:6d} {path}")
    print(f"{sizes[args.type]:6d} total {args.type}")
else:
    for name, count in sizes.most_common(args.most):
        print(f"{count:6d} {name}")

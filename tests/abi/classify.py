# SPDX-License-Identifier: MIT
"""classify.py REPORT -- exit 0 when an abidiff report holds only what the
ABI allows (members appended at the end of a struct, enumerators and types
added), 1 naming every other change.  Used by tests/abi/check.sh.

Allowed: a struct that grew with each inserted member at or beyond the old
size, an enumerator inserted.  Refused: a member deleted, moved (offset
changed), retyped (type name changed), inserted before the old end or into
padding (size unchanged: an old module's struct_size would cover it with
garbage), a struct that shrank, an enumerator deleted or renumbered, an
array resized, a function or variable removed."""
import re
import sys

REFUSE = [
    (re.compile(r"data members? deletion"), "a member deleted"),
    (re.compile(r"offset changed from"), "a member moved"),
    (re.compile(r"type name changed from"), "a member retyped"),
    (re.compile(r"enumerators? deletion"), "an enumerator deleted"),
    (re.compile(r"enumerators? change"), "an enumerator renumbered"),
    (re.compile(r"array type"), "an array changed"),
    (re.compile(r"\b[1-9]\d* Removed (functions|variables?)"), "a type removed"),
]
SIZE = re.compile(r"type size changed from (\d+) to (\d+)")
SAME = re.compile(r"type size hasn't changed")
INSERT = re.compile(r"^\s*'(.*)', at offset (\d+) \(in bits\)")


def main(path):
    bad = []
    old = None  # the old size (bits) of the struct whose changes follow
    for line in open(path, encoding="utf-8", errors="replace"):
        line = line.rstrip("\n")
        for pat, what in REFUSE:
            if pat.search(line):
                bad.append(f"{what}: {line.strip()}")
        m = SIZE.search(line)
        if m:
            old = int(m.group(1))
            if int(m.group(2)) < old:
                bad.append(f"a struct shrank: {line.strip()}")
            continue
        if SAME.search(line):
            old = 0  # an insertion now is into the old size
            continue
        m = INSERT.match(line)
        if m and (old is None or int(m.group(2)) < old):
            bad.append(f"a member inserted before the old end "
                       f"({old if old else 'same size'} bits): {line.strip()}")
    for b in bad:
        print("abi: INCOMPATIBLE " + b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))

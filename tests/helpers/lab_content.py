#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# lab_content.py -- what the network lab's servers serve (netlab.sh), made
# offline and deterministically under DIR:
#   known.txt            one known line (the tests compare it)
#   big.bin              100 MiB: each 16-byte line is its own offset in hex
#                        ("%015x\n"), so a lost, doubled or reordered chunk
#                        changes the checksum; its sha256 in big.sha256
#   simple/              a PEP 503 index: simple/labpkg/ links
#                        packages/labpkg-1.0-py3-none-any.whl with its sha256
#   npm/labpkg           an npm registry document (packument) whose
#                        dist.tarball is https://<HOST>/npm-tarballs/
#                        labpkg-1.0.0.tgz (integrity and shasum filled in)
# usage: lab_content.py DIR HOST
import base64
import gzip
import hashlib
import io
import json
import os
import sys
import tarfile
import zipfile

BIG = 100 * 1024 * 1024
FIXED = (1980, 1, 1, 0, 0, 0)


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def big(root):
    h = hashlib.sha256()
    step = 65536
    with open(os.path.join(root, "big.bin"), "wb") as f:
        for base in range(0, BIG, step * 16):
            chunk = "".join("%015x\n" % (o * 16)
                            for o in range(base // 16, base // 16 + step))
            data = chunk.encode()
            h.update(data)
            f.write(data)
    write(os.path.join(root, "big.sha256"), (h.hexdigest() + "\n").encode())


def wheel():
    files = {
        "labpkg/__init__.py": b"VALUE = 'nova-lab'\n",
        "labpkg-1.0.dist-info/METADATA":
            b"Metadata-Version: 2.1\nName: labpkg\nVersion: 1.0\n",
        "labpkg-1.0.dist-info/WHEEL":
            b"Wheel-Version: 1.0\nGenerator: lab_content\n"
            b"Root-Is-Purelib: true\nTag: py3-none-any\n",
    }
    rec = ""
    for name, data in files.items():
        d = base64.urlsafe_b64encode(hashlib.sha256(data).digest())
        rec += "%s,sha256=%s,%d\n" % (name, d.decode().rstrip("="), len(data))
    rec += "labpkg-1.0.dist-info/RECORD,,\n"
    files["labpkg-1.0.dist-info/RECORD"] = rec.encode()
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for name, data in files.items():
            z.writestr(zipfile.ZipInfo(name, FIXED), data)
    return buf.getvalue()


def pip_index(root):
    whl = wheel()
    name = "labpkg-1.0-py3-none-any.whl"
    write(os.path.join(root, "packages", name), whl)
    sha = hashlib.sha256(whl).hexdigest()
    write(os.path.join(root, "simple", "index.html"),
          b'<!DOCTYPE html><html><body><a href="labpkg/">labpkg</a>'
          b'</body></html>\n')
    write(os.path.join(root, "simple", "labpkg", "index.html"),
          ('<!DOCTYPE html><html><body><a href="../../packages/%s#sha256=%s">'
           '%s</a></body></html>\n' % (name, sha, name)).encode())


def tgz():
    pkg = json.dumps({"name": "labpkg", "version": "1.0.0",
                      "description": "nova-sandbox lab package",
                      "main": "index.js", "license": "MIT"}).encode()
    files = {"package/package.json": pkg,
             "package/index.js": b"module.exports = 'nova-lab';\n"}
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.USTAR_FORMAT) as t:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            info.mode = 0o644
            info.mtime = 315532800
            t.addfile(info, io.BytesIO(data))
    out = io.BytesIO()
    with gzip.GzipFile(fileobj=out, mode="wb", mtime=0) as g:
        g.write(raw.getvalue())
    return out.getvalue()


def npm_registry(root, host):
    data = tgz()
    write(os.path.join(root, "npm-tarballs", "labpkg-1.0.0.tgz"), data)
    integrity = "sha512-" + base64.b64encode(
        hashlib.sha512(data).digest()).decode()
    doc = {
        "name": "labpkg",
        "dist-tags": {"latest": "1.0.0"},
        "versions": {"1.0.0": {
            "name": "labpkg", "version": "1.0.0", "main": "index.js",
            "license": "MIT",
            "dist": {
                "tarball": "https://%s/npm-tarballs/labpkg-1.0.0.tgz" % host,
                "shasum": hashlib.sha1(data).hexdigest(),
                "integrity": integrity}}},
    }
    write(os.path.join(root, "npm", "labpkg"), json.dumps(doc).encode())


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: lab_content.py DIR HOST")
    root, host = sys.argv[1], sys.argv[2]
    write(os.path.join(root, "known.txt"), b"nova-lab known file\n")
    big(root)
    pip_index(root)
    npm_registry(root, host)


if __name__ == "__main__":
    main()

#!/usr/bin/env bash
# Downloads the datasets of datasets/registry.json from their original publishers into DIR
# (default: $MPG_DATA_DIR, else ../shared/datasets) and verifies their sha256. Needs network
# access to the publishers; files already present and correct are skipped.
# Usage: scripts/fetch_data.sh [DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
dir="${1:-${MPG_DATA_DIR:-../shared/datasets}}"
command -v curl >/dev/null || { echo "fetch_data.sh: needs curl" >&2; exit 1; }
python3 - "$dir" <<'PY'
import hashlib, json, os, subprocess, sys, gzip, lzma
base = sys.argv[1]
registry = json.load(open("datasets/registry.json"))
failed = 0
for name, entry in registry.items():
    for variant, files in entry["variants"].items():
        # Every file of a variant (train/test, or train/testa/testb for CoNLL).
        for part, f in files.items():
            if not isinstance(f, dict) or "file" not in f:
                continue
            path = os.path.join(base, f["file"])
            def digest(p):
                data = open(p, "rb").read()
                if p.endswith(".gz"):
                    data = gzip.decompress(data)
                elif p.endswith(".xz"):
                    data = lzma.decompress(data)
                return hashlib.sha256(data).hexdigest()
            if os.path.exists(path) and digest(path) == f["sha256"]:
                print(f"ok       {path}")
                continue
            os.makedirs(os.path.dirname(path), exist_ok=True)
            raw = path[:-3] if path.endswith((".gz", ".xz")) else path
            print(f"fetching {f['url']}")
            if subprocess.call(["curl", "-fsSL", "-o", raw + ".part", f["url"]]) != 0:
                print(f"FAILED   {f['url']}", file=sys.stderr); failed += 1; continue
            os.replace(raw + ".part", raw)
            if path.endswith(".gz"):
                with open(raw, "rb") as src, gzip.open(path, "wb") as dst:
                    dst.write(src.read())
                os.remove(raw)
            elif path.endswith(".xz"):
                with open(raw, "rb") as src, lzma.open(path, "wb", preset=9) as dst:
                    dst.write(src.read())
                os.remove(raw)
            got = digest(path)
            if got != f["sha256"]:
                print(f"MISMATCH {path}: sha256 {got}, registry {f['sha256']}"
                      + (f" ({f['note']})" if "note" in f else ""), file=sys.stderr)
                failed += 1
            else:
                print(f"ok       {path}")
sys.exit(1 if failed else 0)
PY

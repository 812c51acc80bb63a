#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# vectors/index.json and vectors/schema/*.schema.json are generated
# (`fedref vectors schema`, docs/VECTORS.md "Index and schemas"), never
# edited: regenerate them into a temporary directory and fail on any
# difference.  Then validate every committed vector file against its schema
# with an independent validator (Debian's python3-jsonschema, draft
# 2020-12), and check that mutated files the reader rejects (an unknown key,
# a JSON number for a decimal string, an unknown flag, a flag twice in a
# case, no "notes", ...) fail the schema too, that the two the schema cannot
# express (a flag not declared in "notes", a note no case uses) fail the
# reader, and that the unmutated file passes both.  Offline, a few seconds.
# Usage: vectors-schema.sh CLI
set -u
cli=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0

if ! "$cli" vectors schema --out "$tmp" vectors >"$tmp/log" 2>&1; then
  cat "$tmp/log"; echo "vectors-schema: FAIL: fedref vectors schema"; exit 1
fi
if ! cmp -s "$tmp/index.json" vectors/index.json || ! diff -r "$tmp/schema" vectors/schema >/dev/null; then
  diff -r "$tmp/schema" vectors/schema | head -20
  cmp "$tmp/index.json" vectors/index.json
  echo "vectors-schema: FAIL: vectors/index.json or vectors/schema/ differ from what"
  echo "  '$cli vectors schema vectors' writes: regenerate them, never edit them"
  fails=$((fails + 1))
fi
# `vectors list` reads the committed index
n=$("$cli" vectors list vectors | wc -l)
[ "$n" -eq "$(ls vectors/*.json | grep -vc '/index\.json$')" ] \
  || { echo "vectors-schema: FAIL: vectors list printed $n lines"; fails=$((fails + 1)); }

# the validator: /usr/bin/python3 first (the Debian module), then python3
py=
for p in /usr/bin/python3 python3; do
  if "$p" -c 'import jsonschema' 2>/dev/null; then py=$p; break; fi
done
if [ -z "$py" ]; then
  echo "vectors-schema: SKIP validation: no python3 with the jsonschema module (Debian: python3-jsonschema; ci/install-deps.sh)"
  [ "$fails" -eq 0 ] && echo "vectors-schema: index and schemas reproduce" && exit 0
  exit 1
fi

"$py" - "$cli" "$tmp" <<'PYEOF' || fails=$((fails + 1))
import copy, json, os, subprocess, sys
import jsonschema
cli, tmp = sys.argv[1:3]
index = json.load(open("vectors/index.json"))
bad = 0
validators = {}
for e in index["files"]:
    s = json.load(open(os.path.join("vectors", e["schema"])))
    jsonschema.Draft202012Validator.check_schema(s)
    v = jsonschema.Draft202012Validator(s)
    validators[e["function"]] = v
    errs = sorted(v.iter_errors(json.load(open(os.path.join("vectors", e["file"])))), key=str)
    if errs:
        bad += 1
        print("vectors-schema: FAIL: %s does not validate: %s at %s"
              % (e["file"], errs[0].message[:200], list(errs[0].absolute_path)))
print("vectors-schema: %d files valid against their schemas" % (len(index["files"]) - bad))

def reader_rejects(doc, name):
    path = os.path.join(tmp, name + ".json")
    with open(path, "w") as f:
        json.dump(doc, f)
    r = subprocess.run([cli, "vectors", "check", "--impl", "fast", path], capture_output=True, timeout=120)
    return r.returncode == 2

def case0(d): return d["groups"][0]["cases"][0]
def valid0(d): return next(c for g in d["groups"] for c in g["cases"] if c.get("result") != "invalid")
def invalid0(d): return next(c for g in d["groups"] for c in g["cases"] if c.get("result") == "invalid")
def first_input(c): return next(iter(c["input"]))

def m_top_key(d): d["extra"] = 1
def m_case_key(d): case0(d)["weight"] = "1"
def m_group_key(d): d["groups"][0]["label"] = "x"
def m_number(d):
    c = valid0(d); k = first_input(c); x = c["input"][k]
    c["input"][k] = 1.5 if isinstance(x, str) else [1.5] * len(x)
def m_flag(d): case0(d)["flags"] = ["no-such-flag"]
def m_nonnumeric(d):
    c = valid0(d); k = next(iter(c["expect"]))
    c["expect"][k] = "1.0x" if isinstance(c["expect"][k], str) else ["1.0x"]
def m_expect_special(d):
    c = valid0(d); k = next(iter(c["expect"]))
    c["expect"][k] = "NaN" if isinstance(c["expect"][k], str) else ["NaN"]
def m_tol_negative(d): valid0(d)["tol"]["rel"] = "-1e-16"
def m_tol_missing(d): del valid0(d)["tol"]
def m_tol_key(d): valid0(d)["tol"]["ulps"] = "1"
def m_invalid_expect(d): c = invalid0(d); c["expect"] = valid0(d)["expect"]
def m_result(d): case0(d)["result"] = "error"
def m_bits(d): valid0(d)["certified_bits"] = 257
def m_id(d): case0(d)["id"] = "1"
def m_schema(d): d["schema"] = "fedref-vectors/0"
def m_function(d): d["function"] = "median"
def m_groups(d): d["groups"] = []
def m_missing_input(d): del valid0(d)["input"][first_input(valid0(d))]
def m_source(d): d["source"] = 2
def m_notes(d): d["notes"]["kink"] = 1
def m_notes_unknown(d): d["notes"]["no-such-flag"] = "a note of no flag"
def m_notes_missing(d): del d["notes"]
def m_flag_twice(d):
    c = case0(d); c["flags"] = (c["flags"] or [next(iter(d["notes"]))])[:1] * 2
def m_comment(d): d["groups"][0]["comment"] = 1
def m_newline(d):
    c = valid0(d); k = next(iter(c["expect"]))
    x = c["expect"][k]
    c["expect"][k] = x + "\n" if isinstance(x, str) else [x[0] + "\n"] + x[1:]
def m_bool(d): valid0(d)["expect"]["terminated"] = True
def m_choice(d): d["groups"][0]["params"]["h"] = "l2"
def m_when(d): d["groups"][0]["params"]["h"] = "zero"; d["groups"][0]["params"]["gamma"] = "1"

mutations = [("soft", m) for m in (m_top_key, m_case_key, m_group_key, m_number, m_flag, m_nonnumeric,
                                    m_expect_special, m_tol_negative, m_tol_missing, m_tol_key,
                                    m_invalid_expect, m_result, m_bits, m_id, m_schema, m_function,
                                    m_groups, m_missing_input, m_source, m_notes, m_newline,
                                    m_notes_unknown, m_notes_missing, m_flag_twice)]
mutations += [("median", m_comment), ("proxal_admm", m_bool), ("kkt_residual", m_choice),
              ("kkt_residual", m_when)]
for fn, mut in mutations:
    d = json.load(open("vectors/%s.json" % fn))
    mut(d)
    name = "%s_%s" % (fn, mut.__name__)
    r = reader_rejects(d, name)
    s = not validators[fn].is_valid(d)
    if not (r and s):
        bad += 1
        print("vectors-schema: FAIL: %s: reader %s, schema %s (both must reject)"
              % (name, "rejects" if r else "accepts", "rejects" if s else "accepts"))
# what JSON Schema cannot say (a flag declared in "notes", a note used by
# a case: docs/VECTORS.md "Index and schemas"): the reader alone rejects it
def m_undeclared(d): del d["notes"][next(c for g in d["groups"] for c in g["cases"] if c["flags"])["flags"][0]]
def m_unused(d): d["notes"]["tie"] = "equal values among the inputs"
for fn, mut in (("soft", m_undeclared), ("soft", m_unused)):
    d = json.load(open("vectors/%s.json" % fn))
    mut(d)
    name = "%s_%s" % (fn, mut.__name__)
    if not reader_rejects(d, name) or not validators[fn].is_valid(d):
        bad += 1
        print("vectors-schema: FAIL: %s: the reader must reject it, the schema (which cannot say it) accept it" % name)
d = json.load(open("vectors/soft.json"))
if reader_rejects(d, "soft_unmutated") or not validators["soft"].is_valid(d):
    bad += 1
    print("vectors-schema: FAIL: the unmutated soft.json must pass the reader and the schema")
print("vectors-schema: %d mutated files rejected by the reader and the schema, 2 by the reader alone" % len(mutations))
sys.exit(1 if bad else 0)
PYEOF
if [ "$fails" -ne 0 ]; then echo "vectors-schema: $fails FAILED"; exit 1; fi
echo "vectors-schema: index and schemas reproduce; every file validates"

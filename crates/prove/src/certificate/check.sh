#!/bin/sh
# Re-checks this nimlab proof certificate without nimlab (README.md says what it holds): the
# SHA-256 of every file manifest.json names, then every query with z3 (and cvc5 when installed),
# each answer compared with the one manifest.json records. Exit status 0 when everything agrees,
# 1 when something differs, 2 when it cannot run.
# Needs a POSIX shell, sed, sha256sum, and z3 or cvc5 for the queries; the variables Z3 and CVC5
# name other executables, CHECK_TIMEOUT the seconds per query (120; used where `timeout` exists).
cd "$(dirname "$0")" || exit 2
Z3=${Z3:-z3}
CVC5=${CVC5:-cvc5}
fail=0
differs() {
  echo "FAIL: $*"
  fail=1
}
if [ ! -f manifest.json ]; then
  echo "FAIL: manifest.json is missing"
  exit 1
fi
if ! command -v sha256sum >/dev/null 2>&1; then
  echo "check.sh needs sha256sum"
  exit 2
fi

# 1. Every file against its SHA-256 (one line of manifest.json each).
files=$(sed -n 's/^ *{"file": "\([^"]*\)", "role": "[^"]*", "sha256": "\([0-9a-f]*\)"}.*$/\2 \1/p' manifest.json)
if [ -z "$files" ]; then
  echo "FAIL: manifest.json names no file"
  exit 1
fi
count=0
while read -r want name; do
  [ -n "$name" ] || continue
  count=$((count + 1))
  if [ ! -f "$name" ]; then
    differs "$name is missing"
    continue
  fi
  got=$(sha256sum <"$name" | cut -d ' ' -f 1)
  if [ "$got" != "$want" ]; then
    differs "$name has changed (its SHA-256 is $got; manifest.json records $want)"
  fi
done <<LIST
$files
LIST
echo "files: $count checked against their SHA-256"

# 2. Every query (one line of manifest.json each), with each solver installed.
queries=$(grep '"z3_file": ' manifest.json)
if [ -n "$queries" ]; then
  have=""
  if command -v "$Z3" >/dev/null 2>&1; then have="$have z3"; fi
  if command -v "$CVC5" >/dev/null 2>&1; then have="$have cvc5"; fi
  if [ -z "$have" ]; then
    echo "FAIL: neither z3 nor cvc5 is installed (or named by Z3, CVC5): the queries are not re-run"
    exit 1
  fi
  run() {
    if command -v timeout >/dev/null 2>&1; then
      timeout "${CHECK_TIMEOUT:-120}" "$@"
    else
      "$@"
    fi
  }
  nq=0
  while IFS= read -r line; do
    [ -n "$line" ] || continue
    head=$(printf '%s\n' "$line" | sed -n 's/^ *{"file": "\([^"]*\)", "z3_file": \([^,]*\), "answer": \([^,]*\), .*$/\1 \2 \3/p' | tr -d '"')
    if [ -z "$head" ]; then
      differs "a query of manifest.json does not read: $line"
      continue
    fi
    # shellcheck disable=SC2086
    set -- $head
    file=$1
    z3file=$2
    recorded=$3
    if ! printf '%s\n' "$files" | awk -v f="$file" '$2 == f { found = 1 } END { exit !found }'; then
      differs "$file is a query without a SHA-256 in manifest.json"
    fi
    if [ "$recorded" = null ]; then
      echo "note: $file was not run by nimlab (no answer recorded): not run here either"
      continue
    fi
    nq=$((nq + 1))
    for s in $have; do
      f=$file
      if [ "$s" = z3 ]; then
        if [ "$z3file" != null ]; then f=$z3file; fi
        out=$(run "$Z3" -smt2 "$f" 2>/dev/null)
      else
        out=$(run "$CVC5" --lang=smt2 "$f" 2>/dev/null)
      fi
      status=$?
      case $out in
        sat | unsat | unknown) got=$out ;;
        *)
          if [ "$status" -eq 124 ]; then
            got="timeout (no answer within ${CHECK_TIMEOUT:-120} s)"
          else
            got="an error: $(printf '%s\n' "$out" | head -n 1)"
          fi
          ;;
      esac
      mine=$(printf '%s\n' "$line" | sed -n "s/.*{\"solver\": \"$s\", \"answer\": \"\\([a-z]*\\)\".*/\\1/p")
      if [ -n "$mine" ]; then
        if [ "$mine" = unknown ]; then
          if [ "$got" != unknown ]; then echo "note: $f: $s answered $got (manifest.json records unknown)"; fi
        elif [ "$got" != "$mine" ]; then
          differs "$f: $s answered $got; manifest.json records $mine"
        fi
      else
        case "$recorded:$got" in
          sat:sat | unsat:unsat) ;;
          sat:unsat | unsat:sat) differs "$f: $s answered $got; manifest.json records $recorded" ;;
          *) echo "note: $f: $s answered $got (manifest.json records no answer of $s; the query's answer is $recorded)" ;;
        esac
      fi
    done
  done <<LIST
$queries
LIST
  echo "queries: $nq run with$have"
fi

if [ "$fail" -ne 0 ]; then
  echo "check.sh: FAILED (see above)"
  exit 1
fi
echo "check.sh: everything agrees with manifest.json"

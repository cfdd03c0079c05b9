#!/usr/bin/env bash
# Write the torchlint-pre-commit repository's files for a torchlint
# release:
#
#     packaging/pre-commit/make-mirror.sh VERSION DEST
#
# copies packaging/pre-commit/mirror/ into DEST with @VERSION@ replaced by
# VERSION (a PEP 440 version, as on PyPI: 1.2.3, not v1.2.3). The
# maintainers commit the result in the mirror repository and tag it
# vVERSION once the torchlint wheels of VERSION are on PyPI.
set -euo pipefail
if [ $# -ne 2 ]; then
	echo "usage: $0 VERSION DEST" >&2
	exit 2
fi
version=$1
dest=$2
if ! [[ $version =~ ^[0-9]+(\.[0-9]+)*((a|b|rc)[0-9]+)?(\.post[0-9]+)?(\.dev[0-9]+)?$ ]]; then
	echo "$0: $version is not a PEP 440 release version (like 1.2.3)" >&2
	exit 2
fi
src="$(cd "$(dirname "$0")" && pwd)/mirror"
mkdir -p "$dest"
for f in .pre-commit-hooks.yaml pyproject.toml README.md; do
	sed "s/@VERSION@/$version/g" "$src/$f" > "$dest/$f"
done

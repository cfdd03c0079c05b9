// Package project owns what torchlint knows about the project being
// linted, beyond any one file: finding its files (discovery with
// excludes and .gitignore files), its configuration (pyproject.toml's
// [tool.torchlint], torchlint.toml and .torchlint.toml, their `extend`
// chains and per-file ignores, and the rules each file runs), and the
// results cache that keeps each file's findings between runs.
//
// It decides which files and rules a run covers; the analyzer and the
// rules decide what is a finding in each file.
package project

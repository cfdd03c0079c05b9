// Package report owns torchlint's output: it turns the diagnostics of a
// run into the output formats (full, concise, grouped, json, json-lines,
// sarif, github, gitlab, junit and pylint), the summary and the
// --statistics table, the diff and list of applied fixes, and the
// choice of colours.
//
// It never decides what is a finding: it writes the diagnostics it is
// given, in the order given.
package report

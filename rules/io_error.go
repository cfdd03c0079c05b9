package rules

import "github.com/torchlint/torchlint/analyzer"

// IOError is reported by the runner for a file it cannot read or decode.
var IOError = &analyzer.Rule{
	Code:      analyzer.IOErrorCode,
	Name:      "io-error",
	Summary:   "The file cannot be read or is not valid UTF-8",
	Severity:  analyzer.SeverityError,
	Precision: "very-high",
	Tags:      []string{"correctness"},
	Doc: `## What it does
Reports a file that torchlint could not lint: it could not be read (for
example, permission denied), or its bytes are not valid UTF-8.

## Why is this bad?
A file that is not linted can hide any of the problems torchlint looks
for. Python source is UTF-8 unless the file declares another encoding.

## Example
A file saved as Latin-1 containing ` + "`# coding: latin-1`" + ` and a byte such as ` + "`0xE9`" + `.

## Use instead
Save the file as UTF-8, and make sure the user running torchlint can read it.

## Known problems
Files that declare a non-UTF-8 encoding with a coding comment are reported
rather than decoded. This diagnostic cannot be disabled.

## References
- [PEP 3120 – Using UTF-8 as the default source encoding](https://peps.python.org/pep-3120/)
`,
}

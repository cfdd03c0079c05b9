package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/torchlint/torchlint/analyzer"
	"github.com/torchlint/torchlint/report"
	"github.com/torchlint/torchlint/rules"
)

// fuzzSeeds adds every Python fixture and golden sample as a seed.
func fuzzSeeds(f *testing.F) {
	paths, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "python", "*.py"))
	more, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "golden", "*.py"))
	for _, p := range append(paths, more...) {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte(""))
	f.Add([]byte("\xef\xbb\xbfimport torch\r\nx = torch.load(p)\r"))
	f.Add([]byte("def f(:\n\tprint 'x'\n"))
}

// FuzzPipeline runs the whole per-file pipeline on any bytes: parse, the
// semantic model, every rule (preview ones and unused-noqa included),
// fixing with unsafe fixes, and every output format. Nothing may panic,
// JSON and SARIF must stay valid, and fixing must never produce a file
// that parses worse than the input.
func FuzzPipeline(f *testing.F) {
	fuzzSeeds(f)
	runner := analyzer.NewRunner(rules.Runnable(), rules.SyntaxError, rules.IOError)
	cwd, _ := os.Getwd()
	f.Fuzz(func(t *testing.T, src []byte) {
		if len(src) > 1<<16 {
			return
		}
		diags := runner.LintSource("fuzz.py", src)
		for _, d := range diags {
			if d.Pos.Line < 1 || d.Pos.Column < 1 || d.EndPos.Line < d.Pos.Line {
				t.Fatalf("bad position %+v for %s", d, d.Rule.Code)
			}
			if d.Fix != nil {
				for _, e := range d.Fix.Edits {
					if int(e.End) > len(src) || e.Start > e.End {
						t.Fatalf("%s edit [%d,%d) outside the %d-byte source", d.Rule.Code, e.Start, e.End, len(src))
					}
				}
			}
		}
		res := runner.FixSource("fuzz.py", src, true)
		if len(res.Applied) > 0 {
			f, err := analyzer.Parse("fuzz.py", res.Source)
			if err != nil || len(f.SyntaxErrors()) > 0 {
				t.Fatalf("fixes produced a syntax error:\n%s", res.Source)
			}
		}
		rep := &report.Report{Diagnostics: analyzer.Unsuppressed(diags), Files: 1, Cwd: cwd, Unsafe: true, Version: devVersion}
		for _, name := range report.Formats() {
			var buf bytes.Buffer
			if err := report.Write(&buf, name, rep); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			switch name {
			case "json", "sarif", "gitlab":
				if !json.Valid(buf.Bytes()) {
					t.Fatalf("%s output is not valid JSON:\n%s", name, buf.Bytes())
				}
			}
		}
	})
}

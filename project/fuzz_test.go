package project

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/torchlint/torchlint/analyzer"
)

// FuzzConfig feeds any bytes to the configuration parser, as a
// pyproject.toml and as a torchlint.toml: an error or a configuration,
// never a panic.
func FuzzConfig(f *testing.F) {
	for _, s := range []string{
		"[tool.torchlint]\nselect = [\"TL1\"]\n",
		"[tool.torchlint.per-file-ignores]\n\"a/*.py\" = [\"TL101\"]\n",
		"select = \"x\"\nbogus = 1\n",
		"extend = \"other.toml\"\nexclude = [\"a\", \"b/**\"]\nrespect-gitignore = false\n",
		"[project]\nname = 'x'\n[tool.black]\nline-length = 1\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, name := range []string{"pyproject.toml", "torchlint.toml"} {
			fc, _, err := parseConfig(name, data)
			if err != nil {
				if err.Error() == "" {
					t.Fatal("empty error message")
				}
				continue
			}
			for pattern := range fc.PerFileIgnores {
				_ = keyLine(data, name, "per-file-ignores", pattern)
			}
			_ = keyLine(data, name, "select")
		}
	})
}

// FuzzSummaryCodec feeds any bytes to the decoders of the cache's
// summaries and questions: an error or a value, never a panic, and a
// value that decodes keeps its keys in order, each once, and is read
// back the same once encoded again.
func FuzzSummaryCodec(f *testing.F) {
	var full analyzer.Summary
	n := 0
	fill(f, reflect.ValueOf(&full).Elem(), &n, nil)
	f.Add(encodeSummary(&full))
	f.Add(encodeSummary(&analyzer.Summary{Bindings: analyzer.Pairs{{Key: "F", Value: "torch.nn.functional"}}}))
	f.Add(encodeAsked(Questions{{Key: "Htorch", Value: ""}, {Key: "L1 nets.Net", Value: "x"}}))
	f.Fuzz(func(t *testing.T, data []byte) {
		sorted := func(ps analyzer.Pairs) bool {
			return slices.IsSortedFunc(ps, func(a, b analyzer.Pair) int { return strings.Compare(a.Key, b.Key) }) &&
				len(slices.CompactFunc(slices.Clone(ps), func(a, b analyzer.Pair) bool { return a.Key == b.Key })) == len(ps)
		}
		if s, err := decodeSummary(data); err == nil {
			if !sorted(s.Bindings) || !sorted(s.Instances) {
				t.Fatalf("names out of order or twice: %v, %v", s.Bindings, s.Instances)
			}
			again, err := decodeSummary(encodeSummary(s))
			if err != nil || !reflect.DeepEqual(again, s) {
				t.Fatalf("summary read back as %+v (%v), want %+v", again, err, s)
			}
		}
		if qs, err := decodeAsked(data); err == nil {
			if !sorted(qs) {
				t.Fatalf("questions out of order or twice: %v", qs)
			}
			again, err := decodeAsked(encodeAsked(qs))
			if err != nil || !reflect.DeepEqual(again, qs) {
				t.Fatalf("questions read back as %v (%v), want %v", again, err, qs)
			}
		}
	})
}

package analyzer

import (
	"strings"
	"testing"
)

// FuzzNoqa checks the noqa parsers on any comment text: they never panic,
// and every directive and code they return lies inside the comment.
func FuzzNoqa(f *testing.F) {
	for _, s := range []string{
		"# noqa", "# noqa: TL101", "#NOQA:TL101,TL201", "# noqa: TL101 E501 reason", "# type: ignore  # noqa: TL403",
		"# torchlint: noqa", "# torchlint: noqa: TL301, TL101", "# noqa:", "# noqanything", "#", "# noqa: ,,, TL1",
	} {
		f.Add(s, uint32(0))
		f.Add(s, uint32(1<<20))
	}
	f.Fuzz(func(t *testing.T, comment string, base uint32) {
		if base > 1<<30 {
			base %= 1 << 30
		}
		end := base + uint32(len(comment))
		check := func(kind string, d noqaDirective, ok bool) {
			if !ok {
				return
			}
			if d.Start < base || d.End > end || d.Start > d.End {
				t.Fatalf("%s directive [%d,%d) outside the comment [%d,%d): %q", kind, d.Start, d.End, base, end, comment)
			}
			for _, c := range d.Codes {
				if c.Start < d.Start || c.End > d.End || c.Code != strings.ToUpper(comment[c.Start-base:c.End-base]) {
					t.Fatalf("%s code %+v does not match the comment %q", kind, c, comment)
				}
			}
		}
		d, ok := parseLineNoqa(comment, base)
		check("line", d, ok)
		d, ok = parseFileNoqa(comment, base)
		check("file", d, ok)
	})
}

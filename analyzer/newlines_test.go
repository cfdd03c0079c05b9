package analyzer_test

import (
	"fmt"
	"strings"
	"testing"
)

// TestLoneCarriageReturns: Python reads a lone CR (old Mac line endings)
// as a newline, so a file written with them is no syntax error, its
// findings sit on the lines an editor shows, and a `with torch.no_grad():`
// block holds what it holds.
func TestLoneCarriageReturns(t *testing.T) {
	lines := []string{
		"import torch",
		"",
		"",
		"def evaluate(net, images):",
		"    net.eval()",
		"    outs = []",
		"    for x in images:",
		"        outs.append(net(x).tolist())",
		"    return outs",
		"",
		"",
		"def evaluate_quiet(net, images):",
		"    net.eval()",
		"    with torch.no_grad():",
		"        return [net(x).tolist() for x in images]",
		"",
	}
	for _, eol := range []string{"\r", "\r\n", "\n"} {
		src := []byte(strings.Join(lines, eol))
		diags := allRunner().LintSource("mac.py", src)
		var got []string
		for _, d := range diags {
			got = append(got, fmt.Sprintf("%s@%d", d.Rule.Code, d.Pos.Line))
		}
		if want := "TL201@8"; strings.Join(got, " ") != want {
			t.Errorf("line endings %q: findings %v, want %s", eol, got, want)
		}
	}
}

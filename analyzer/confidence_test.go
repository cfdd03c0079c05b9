package analyzer

import "testing"

func TestConfidenceLevels(t *testing.T) {
	cases := []struct {
		assumed []string
		once    string
		seldom  string
		want    Confidence
	}{
		{nil, "", "", ConfidenceHigh},
		{[]string{"a name"}, "", "", ConfidenceMedium},
		{nil, "runs once", "", ConfidenceLow},
		{[]string{"a name", "a caller"}, "", "", ConfidenceLow},
		{[]string{"a name"}, "runs once", "", ConfidenceLow},
		{[]string{"a", "b", "c"}, "runs once", "", ConfidenceLow},
		{nil, "", "every 100 steps", ConfidenceMedium},
		{[]string{"a name"}, "", "every 100 steps", ConfidenceLow},
	}
	for _, c := range cases {
		d := Diagnostic{Assumed: c.assumed, Once: c.once, Seldom: c.seldom}
		if got := d.Confidence(); got != c.want {
			t.Errorf("assumed %q, once %q, seldom %q: %s, want %s", c.assumed, c.once, c.seldom, got, c.want)
		}
	}
	for _, c := range Confidences {
		if got, err := ParseConfidence(c.String()); err != nil || got != c {
			t.Errorf("ParseConfidence(%q) = %v, %v", c, got, err)
		}
	}
	if got, err := ParseConfidence("MEDIUM"); err != nil || got != ConfidenceMedium {
		t.Errorf("ParseConfidence is not case-blind: %v, %v", got, err)
	}
	if _, err := ParseConfidence("sure"); err == nil {
		t.Error("ParseConfidence accepted an unknown level")
	}
	if ConfidenceHigh.Rank() <= ConfidenceMedium.Rank() || ConfidenceMedium.Rank() <= ConfidenceLow.Rank() {
		t.Error("ranks do not follow the levels")
	}
}

// TestConfident: the level the user chooses applies to every rule; with
// none, each rule's own does.
func TestConfident(t *testing.T) {
	strict := &Rule{Code: "TL991", Confidence: ConfidenceHigh}
	loose := &Rule{Code: "TL992", Confidence: ConfidenceLow}
	plain := &Rule{Code: "TL993"} // DefaultConfidence
	diags := []Diagnostic{
		{Rule: strict, Path: "a.py", Assumed: []string{"x"}},     // medium
		{Rule: loose, Path: "a.py", Assumed: []string{"x", "y"}}, // low
		{Rule: plain, Path: "a.py", Assumed: []string{"x"}},      // medium
		{Rule: plain, Path: "b.py", Assumed: []string{"x", "y"}}, // low
		{Rule: strict, Path: "b.py"},                             // high
	}
	codes := func(ds []Diagnostic) string {
		s := ""
		for _, d := range ds {
			s += d.Rule.Code + "@" + d.Path + " "
		}
		return s
	}
	kept, hidden, lowest := Confident(diags, func(string) Confidence { return 0 })
	if got := codes(kept); got != "TL992@a.py TL993@a.py TL991@b.py " || hidden != 2 || lowest != ConfidenceLow {
		t.Errorf("rules' own levels: kept %s, hidden %d, lowest %s", got, hidden, lowest)
	}
	kept, hidden, lowest = Confident(diags, func(p string) Confidence {
		if p == "a.py" {
			return ConfidenceLow
		}
		return ConfidenceHigh
	})
	if got := codes(kept); got != "TL991@a.py TL992@a.py TL993@a.py TL991@b.py " || hidden != 1 || lowest != ConfidenceLow {
		t.Errorf("per file: kept %s, hidden %d, lowest %s", got, hidden, lowest)
	}
	if kept, hidden, _ := Confident(diags, nil); len(kept) != len(diags) || hidden != 0 {
		t.Errorf("no level: kept %d of %d", len(kept), len(diags))
	}
}

package rules

import (
	"sort"

	"github.com/torchlint/torchlint/analyzer"
)

// CheckSelector reports whether a selector (a code, a code prefix, a rule
// name or ALL) names any rule.
func CheckSelector(selector string) error {
	_, err := match(selector, true)
	return err
}

// ResolveLayers applies selections in order, as configuration files and
// the command line stack up: a layer whose Select is given (SelectSet or
// non-empty) starts again from it, every layer's ExtendSelect adds rules
// and its Ignore removes them. The first layer starts from the default
// rules. It returns the enabled rules that run, sorted by code.
func ResolveLayers(layers []Selection) ([]*analyzer.Rule, error) {
	on := map[*analyzer.Rule]bool{}
	for _, r := range All {
		if !r.Preview {
			on[r] = true
		}
	}
	for _, l := range layers {
		if l.SelectSet || len(l.Select) > 0 {
			on = map[*analyzer.Rule]bool{}
			if err := apply(on, l.Select, true); err != nil {
				return nil, err
			}
		}
		if err := apply(on, l.ExtendSelect, true); err != nil {
			return nil, err
		}
		if err := apply(on, l.Ignore, false); err != nil {
			return nil, err
		}
	}
	out := make([]*analyzer.Rule, 0, len(on))
	for r := range on {
		if Selectable(r) {
			out = append(out, r)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Code < out[j].Code })
	return out, nil
}

func apply(on map[*analyzer.Rule]bool, selectors []string, enable bool) error {
	for _, pat := range selectors {
		matched, err := match(pat, enable)
		if err != nil {
			return err
		}
		for _, r := range matched {
			if enable {
				on[r] = true
			} else {
				delete(on, r)
			}
		}
	}
	return nil
}

// Runnable returns every rule the runner can run, preview rules included;
// a run narrows them per file.
func Runnable() []*analyzer.Rule {
	var out []*analyzer.Rule
	for _, r := range All {
		if Selectable(r) {
			out = append(out, r)
		}
	}
	return out
}

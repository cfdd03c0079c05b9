package rules

import (
	"slices"
	"testing"
)

// TestEvalRegionListsItsPasses checks that a TL201 finding, reported at
// the first forward pass of its region, lists the region's later passes
// with grad enabled as related locations, and none under no_grad; one
// found by where its outputs go lists its function's later passes whose
// outputs only reach the host.
func TestEvalRegionListsItsPasses(t *testing.T) {
	diags := lintFixture(t, "../testdata/python/TL201_region_passes.py", EvalWithoutNoGrad)
	const more = "another forward pass of the region with grad enabled, which the same no_grad covers"
	const hostMore = "another forward pass of `rollout` with grad enabled whose outputs only reach the host"
	want := map[int][]int{18: {22, 24}, 35: nil, 46: {47}}
	seen := map[int]bool{}
	for _, d := range diags {
		w, ok := want[d.Pos.Line]
		if !ok || d.Rule.Code != "TL201" {
			t.Errorf("line %d: unexpected %s", d.Pos.Line, d.Rule.Code)
			continue
		}
		seen[d.Pos.Line] = true
		var got []int
		for _, r := range d.Related {
			if r.Message == more || r.Message == hostMore {
				got = append(got, r.Line)
			}
		}
		if !slices.Equal(got, w) {
			t.Errorf("line %d: other passes listed at lines %v, want %v", d.Pos.Line, got, w)
		}
	}
	for line := range want {
		if !seen[line] {
			t.Errorf("line %d: no TL201 finding", line)
		}
	}
}

// TestFlagCallListsItsBranchPasses checks that a call turning its
// callee's backward() off by a flag lists the passes of the branches the
// flag selects, not the training branch's first pass.
func TestFlagCallListsItsBranchPasses(t *testing.T) {
	diags := lintFixture(t, "../testdata/python/TL201_flag_arms.py", EvalWithoutNoGrad)
	const msg = "a forward pass `run` runs with `training=False`"
	found := false
	for _, d := range diags {
		if d.Rule.Code != "TL201" || d.Pos.Line != 30 {
			continue
		}
		found = true
		var got []int
		for _, r := range d.Related {
			if r.Message == msg {
				got = append(got, r.Line)
			}
		}
		if want := []int{20, 22}; !slices.Equal(got, want) {
			t.Errorf("passes listed at lines %v, want %v", got, want)
		}
	}
	if !found {
		t.Error("line 30: no TL201 finding")
	}
}

// TestOncePassSaysWhereItRuns checks where a finding that runs once
// says its pass is: outside any loop, or in a loop over a few fixed
// values, which runs it once per value.
func TestOncePassSaysWhereItRuns(t *testing.T) {
	diags := lintFixture(t, "../testdata/python/TL201_module_level_outputs.py", EvalWithoutNoGrad)
	want := map[int]string{
		38: "once: a forward pass of module-level code in the loop at line 37, over a few fixed values, keeps one graph, not one per batch",
	}
	for _, d := range diags {
		if w, ok := want[d.Pos.Line]; ok {
			if got := "once: " + d.Once; got != w {
				t.Errorf("line %d: %q, want %q", d.Pos.Line, got, w)
			}
			delete(want, d.Pos.Line)
		}
	}
	for line := range want {
		t.Errorf("line %d: no TL201 finding", line)
	}
}

// TestFewFixedPassesRunOnce checks that a script's pass in a loop over a
// few values written out (`range(3)`, `enumerate([a, b])`) says it runs
// once per value.
func TestFewFixedPassesRunOnce(t *testing.T) {
	diags := lintFixture(t, "../testdata/python/TL201_few_passes.py", EvalWithoutNoGrad)
	const want = "a forward pass of module-level code in the loop at line 11, over a few fixed values, keeps one graph, not one per batch"
	found := false
	for _, d := range diags {
		if d.Pos.Line == 12 {
			found = true
			if d.Once != want {
				t.Errorf("line 12: once %q, want %q", d.Once, want)
			}
		}
	}
	if !found {
		t.Error("line 12: no TL201 finding")
	}
}

// TestOneSampleThroughHelpers checks what a pass read as one sample says
// where a helper of the file runs it or the host made the batch of one.
func TestOneSampleThroughHelpers(t *testing.T) {
	diags := lintFixture(t, "../testdata/python/TL201_one_value_read.py", EvalWithoutNoGrad)
	want := map[int]string{
		66:  "its output is read as one value (`get_policy(obs).sample().item()`) of what the caller hands in (`obs`): one sample, whose graph each call records and frees with it",
		95:  "`get_action` runs each of its forward passes on one sample (`torch.FloatTensor(state).unsqueeze(0)`) and the outputs only reach the host: each call records one sample's graph, freed with them",
		105: "its input is one sample (`s[np.newaxis,:]`) and its outputs only reach the host: each call records one sample's graph, freed with them",
	}
	for _, d := range diags {
		if w, ok := want[d.Pos.Line]; ok {
			if d.Once != w {
				t.Errorf("line %d: %q, want %q", d.Pos.Line, d.Once, w)
			}
			delete(want, d.Pos.Line)
		}
	}
	for line := range want {
		t.Errorf("line %d: no TL201 finding", line)
	}
}

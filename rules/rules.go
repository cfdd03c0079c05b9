// Package rules holds torchlint's rules, one file each, and the registry
// that lists them. Each rule is an *analyzer.Rule value with its code,
// name, documentation and check.
package rules

import (
	"fmt"
	"strings"

	"github.com/torchlint/torchlint/analyzer"
)

// All lists every rule, sorted by code.
var All = []*analyzer.Rule{
	SyntaxError,
	IOError,
	LossAccumulatedWithGraph,
	TensorWithGraphStored,
	RetainGraphEveryStep,
	HookStoresOutputWithGraph,
	EvalWithoutNoGrad,
	VolatileHasNoEffect,
	PreferInferenceMode,
	EmptyCacheInLoop,
	AllocConfAfterCudaInit,
	MaxSplitSizeSuperseded,
	DeprecatedCudaAmp,
	CheckpointWithoutUseReentrant,
	TorchLoadWithoutMapLocation,
	TorchLoadWithoutMapLocationAnywhere,
	HostSyncEveryStep,
	MissingZeroGrad,
	ModelLeftInEvalMode,
	SoftmaxBeforeCrossEntropy,
	DistributedSamplerSetEpoch,
	UnscaledGradientAccumulation,
	UnusedNoqa,
}

// ByCode returns the rule with the given code or kebab-case name.
func ByCode(code string) *analyzer.Rule {
	for _, r := range All {
		if strings.EqualFold(r.Code, code) || r.Name == code {
			return r
		}
	}
	return nil
}

// Selection is the set of rules a run enables: Select (or the default set
// when empty) plus ExtendSelect, minus Ignore. Each entry is a code, a
// code prefix ("TL1"), a rule name, or "ALL".
type Selection struct {
	Select, ExtendSelect, Ignore []string
	// SelectSet marks Select as given even when empty (`select = []`).
	SelectSet bool
}

// Resolve returns the rules a single selection enables, sorted by code.
// Preview rules are enabled only by their exact code or name.
func (s Selection) Resolve() ([]*analyzer.Rule, error) {
	return ResolveLayers([]Selection{s})
}

// match returns the rules a selector names, to enable or to ignore. A
// prefix matches the rules whose codes start with it, except that only
// their exact code or name enables preview rules; any prefix ignores them.
func match(selector string, enable bool) ([]*analyzer.Rule, error) {
	p := strings.TrimSpace(selector)
	all := strings.EqualFold(p, "ALL")
	var out []*analyzer.Rule
	known := false
	for _, r := range All {
		exact := strings.EqualFold(r.Code, p) || r.Name == p
		prefix := all || strings.HasPrefix(r.Code, strings.ToUpper(p))
		if prefix && p != "" {
			known = true
		}
		// A prefix selects no preview rule, but ignores any.
		if exact || (prefix && p != "" && (!r.Preview || !enable)) {
			out = append(out, r)
			known = true
		}
	}
	if !known {
		return nil, fmt.Errorf("unknown rule selector %q (expected a code such as TL101, a prefix such as TL1, a rule name, or ALL)", selector)
	}
	return out, nil
}

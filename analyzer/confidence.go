package analyzer

import (
	"fmt"
	"strings"
)

// Confidence is how sure torchlint is of a finding, from what the
// analysis saw when it made it. The order of the values is the order of
// the levels: a higher value is surer.
type Confidence uint8

// The confidence levels.
const (
	// ConfidenceLow: more than one link of the finding's reasoning was
	// assumed, or the pattern runs once and costs one graph.
	ConfidenceLow Confidence = iota + 1
	// ConfidenceMedium: one link was assumed (a model known by its name,
	// a function's grad mode with no caller in the project).
	ConfidenceMedium
	// ConfidenceHigh: every link was seen in the project's code.
	ConfidenceHigh
)

// Confidences lists the levels from the surest down.
var Confidences = []Confidence{ConfidenceHigh, ConfidenceMedium, ConfidenceLow}

func (c Confidence) String() string {
	switch c {
	case ConfidenceHigh:
		return "high"
	case ConfidenceMedium:
		return "medium"
	case ConfidenceLow:
		return "low"
	}
	return fmt.Sprintf("Confidence(%d)", uint8(c))
}

// Rank is the finding's rank for SARIF (0 to 100, higher is surer):
// what code scanning sorts and filters results by.
func (c Confidence) Rank() int {
	switch c {
	case ConfidenceHigh:
		return 90
	case ConfidenceMedium:
		return 60
	}
	return 30
}

// ParseConfidence reads a level by its name, in any case.
func ParseConfidence(s string) (Confidence, error) {
	for _, c := range Confidences {
		if strings.EqualFold(s, c.String()) {
			return c, nil
		}
	}
	return 0, fmt.Errorf("unknown confidence level %q (expected high, medium or low)", s)
}

// DefaultConfidence is the lowest level of a rule's findings shown when
// neither the command line nor a configuration chooses one, and the rule
// does not set its own (Rule.Confidence).
const DefaultConfidence = ConfidenceMedium

// ShownFrom is the lowest confidence of the rule's findings shown by
// default.
func (r *Rule) ShownFrom() Confidence {
	if r.Confidence != 0 {
		return r.Confidence
	}
	return DefaultConfidence
}

// threshold is the lowest confidence shown of a finding: min's answer for
// its file, or its rule's own where min gives none (0).
func threshold(d *Diagnostic, min func(path string) Confidence) Confidence {
	if c := min(d.Path); c != 0 {
		return c
	}
	return d.Rule.ShownFrom()
}

// Confidence is how sure the finding is: high when its reasoning
// assumed nothing and the pattern repeats, one level lower for each
// assumption, and low for a pattern that runs once (a demo's one print,
// a `__main__` smoke test): what it costs is one graph, and readings of
// real code found such findings right but minor. Findings of the runner
// (syntax and read errors) and of rules that judge what the code says
// rather than what it does are high.
func (d *Diagnostic) Confidence() Confidence {
	n := len(d.Assumed)
	if d.Once != "" {
		n += 2
	}
	if d.Seldom != "" {
		n++
	}
	switch n {
	case 0:
		return ConfidenceHigh
	case 1:
		return ConfidenceMedium
	}
	return ConfidenceLow
}

// Assume records, on the last reported diagnostic, a link of its
// reasoning that the analysis did not see in the project's code and took
// on trust: "`net` is a model: known by its name". Each assumption lowers
// the finding's confidence by one level.
func (p *Pass) Assume(why string) {
	if why == "" {
		return
	}
	d := &(*p.out)[len(*p.out)-1]
	d.Assumed = append(d.Assumed, why)
}

// Seldom records, on the last reported diagnostic, why its pattern runs
// on some steps only (under `if step % k == 0:`): one graph every few
// steps, rather than one per step. It lowers the confidence by one level.
func (p *Pass) Seldom(why string) {
	(*p.out)[len(*p.out)-1].Seldom = why
}

// Once records, on the last reported diagnostic, why its pattern costs
// one graph rather than one per step (a forward pass run once, on one
// input); it makes the finding's confidence low.
func (p *Pass) Once(why string) {
	(*p.out)[len(*p.out)-1].Once = why
}

// Evidence adds, to the last reported diagnostic, places of the project
// that its reasoning rests on (where the model was switched to
// evaluation mode, where grad was judged), as related locations.
func (p *Pass) Evidence(rel ...Related) {
	d := &(*p.out)[len(*p.out)-1]
	d.Related = append(d.Related, rel...)
}

// RelatedNode is a related location at a node of the file being linted.
func (p *Pass) RelatedNode(node NodeID, message string) Related {
	pos := p.File.Position(p.File.N(node).Start)
	return Related{Path: p.File.Path, Line: pos.Line, Column: pos.Column, Message: message}
}

// Confident keeps the findings whose confidence is at least the level
// min gives for their file, or their rule's own where it gives 0 (nil:
// every finding); hidden counts the others, and lowest is the level of
// the least sure of them.
func Confident(diags []Diagnostic, min func(path string) Confidence) (kept []Diagnostic, hidden int, lowest Confidence) {
	if min == nil {
		return diags, 0, 0
	}
	kept = diags[:0:0]
	for i := range diags {
		c := diags[i].Confidence()
		if c >= threshold(&diags[i], min) {
			kept = append(kept, diags[i])
			continue
		}
		hidden++
		if lowest == 0 || c < lowest {
			lowest = c
		}
	}
	if hidden == 0 {
		return diags, 0, 0
	}
	return kept, hidden, lowest
}

// shown reports whether a finding is at the confidence level the runner
// shows for its file, and so whether a fix or a noqa comment may be
// added for it.
func (r *Runner) shown(d *Diagnostic) bool {
	return r.MinConfidence == nil || d.Confidence() >= threshold(d, r.MinConfidence)
}

// WithoutNames answers question with callees judged by what the code
// does with them alone: a callee that only its name (`net`, `criterion`)
// makes a model or a loss is unknown. A rule asks it of a finding it is
// about to report, to tell whether the finding rests on a name. The
// memoized answers of the model are set aside meanwhile, so that answers
// worked out with names do not leak into it, and restored after.
func (m *Model) WithoutNames(question func() bool) bool {
	if m.noNames {
		return question()
	}
	carries, memo, forwardAt, helpers := m.carries, m.memo, m.forwardAt, m.helpers
	m.carries, m.memo, m.forwardAt, m.helpers = make(map[NodeID]carryState), nil, nil, nil
	m.noNames = true
	defer func() {
		m.carries, m.memo, m.forwardAt, m.helpers = carries, memo, forwardAt, helpers
		m.noNames = false
	}()
	return question()
}

// GradAssumed reports whether grad is enabled at id only because no code
// of the project calls the function id is in: its callers (a script of
// another project, a framework's loop, a test runner) may disable it.
// byName says that calls in other files of a method of its name, on
// objects of no known class, do call it, where another class of the
// project has a method of that name: they may be calling that one. via
// is NoNode, or, for a function that is called, the function of this
// file through whose calls alone grad is enabled there, itself called by
// no code (`conditional_sample_mcmc` calling `conditional_sample`, which
// every other caller runs under `no_grad`). off is, where byName, a call
// of the method's name that runs with grad disabled: the calls by name
// disagree.
func (m *Model) GradAssumed(id NodeID) (assumed, byName bool, via NodeID, off *Site) {
	f := m.File
	def := m.EnclosingFunction(id)
	if def == NoNode || m.GradModeAt(id) != GradEnabled {
		return false, false, NoNode, nil
	}
	// Only the function's own mode reaches id: no switch of the function
	// encloses it (a `with torch.enable_grad():` is seen).
	for x := f.Parent(id); x != def && x != NoNode; x = f.Parent(x) {
		if f.Kind(x) == KindWithStatement {
			if _, ok := m.withSwitch(x); ok {
				return false, false, NoNode, nil
			}
		}
	}
	a := m.gradAssumedIn(m.runningFunction(def))
	return a.assumed, a.byName, a.via, a.off
}

// runningFunction is the function whose callers set the grad mode of
// def: def itself, or, for a function nested in another that nothing
// calls by name (a closure it returns, a callback it hands on), the
// enclosing function, which runs it, or whatever it hands it to.
func (m *Model) runningFunction(def NodeID) NodeID {
	f := m.File
	m.indexCalls()
	for {
		outer := m.EnclosingFunction(f.Parent(def))
		if outer == NoNode || len(m.callSites[def]) > 0 && !m.escapes[def] && !m.callbacks[def] {
			return def
		}
		def = outer
	}
}

// CallersAssumed is, for a function called only from other files, whose
// grad mode GradAssumed takes from those calls, the first of them where
// they all run in their callers' mode and nothing of the project sets
// the callers' own (Object.CallersAssumed): one more link assumed, its
// Text the caller's name. nil otherwise.
func (m *Model) CallersAssumed(id NodeID) *Site {
	def := m.EnclosingFunction(id)
	if def == NoNode {
		return nil
	}
	return m.gradAssumedIn(def).named
}

type gradAssumption struct {
	assumed, byName bool
	via             NodeID
	off, named      *Site
}

type gradAssumedKey struct{ def NodeID }

// gradAssumedIn is GradAssumed for the mode of function def itself.
func (m *Model) gradAssumedIn(def NodeID) gradAssumption {
	none := gradAssumption{via: NoNode}
	return m.MemoRecursive(gradAssumedKey{def}, none, func() any {
		if m.FunctionGradMode(def) != GradEnabled || m.backpropagates(def) || m.IsLightningTrainHook(def) || m.trainsThrough(def) {
			return none
		}
		if m.uncalled[def] {
			if o := m.projectNamedCalls(def); o != nil {
				// A notebook's method the project's files call by its name
				// with grad enabled: sure where no class of theirs has a
				// method of that name.
				if o.CalledByName {
					return gradAssumption{assumed: true, byName: true, via: NoNode}
				}
				return none
			}
			o := m.lookup(m.localRef(def), WantCallers)
			if o != nil && o.CalledByName {
				return gradAssumption{assumed: true, byName: true, via: NoNode, off: o.NamedOff, named: o.CallersAssumed}
			}
			if o != nil && o.CalledElsewhere && o.CallersAssumed != nil {
				return gradAssumption{assumed: true, via: NoNode, named: o.CallersAssumed}
			}
			return gradAssumption{assumed: o == nil || !o.CalledElsewhere, via: NoNode}
		}
		return m.gradAssumedThroughCallers(def)
	}).(gradAssumption)
}

// gradAssumedThroughCallers reports whether a function its own file
// calls runs with grad enabled only where called from functions whose
// own grad mode is assumed (gradAssumedIn): no decorator or use as a
// value sets its mode, no call in another file enables grad for it, and
// each call of this file that does not disable grad is in such a
// function.
func (m *Model) gradAssumedThroughCallers(def NodeID) gradAssumption {
	none := gradAssumption{via: NoNode}
	if _, ok := m.decoratedGrad(def); ok {
		return none
	}
	m.indexCalls()
	if m.callbacks[def] || m.escapes[def] {
		return none
	}
	if o := m.lookup(m.localRef(def), WantGrad|WantCallers); o != nil && (o.GradKnown || o.EnabledElsewhere) {
		return none // calls in other files set its mode
	}
	out := none
	for _, c := range m.callSites[def] {
		if m.File.Contains(def, c) || m.GradModeAt(c) == GradDisabled {
			continue
		}
		assumed, byName, via, off := m.GradAssumed(c)
		if !assumed && m.GradModeAt(c) == GradUnknown && m.runningFunction(m.EnclosingFunction(c)) != m.EnclosingFunction(c) {
			// A call in a nested function that what encloses it returns
			// or hands on: its callers are not followed.
			assumed, via = true, m.EnclosingFunction(c)
		}
		if !assumed {
			return none
		}
		if via == NoNode {
			via = m.EnclosingFunction(c)
		}
		if out.via == NoNode {
			out.via = via
		}
		if out.off == nil {
			out.off = off
		}
		out.assumed, out.byName = true, out.byName || byName
	}
	return out
}

// trainsThrough reports whether a function back-propagates through the
// functions it calls (`train(argv)` calling `trainer.train_epoch(...)`):
// like one that does so itself, it is written to run with grad enabled.
func (m *Model) trainsThrough(def NodeID) bool {
	o := m.stepsOf(def, 0, false)
	return o != nil && o.Backward != nil
}

// Backpropagates is backpropagates, for rules.
func (m *Model) Backpropagates(def NodeID) bool { return m.backpropagates(def) }

// backpropagates reports whether a function back-propagates itself (a
// backward, torch.autograd.grad): it is written to run with grad
// enabled, whoever calls it.
func (m *Model) backpropagates(def NodeID) bool {
	return m.MemoRecursive(backpropagatesKey{def}, false, func() any {
		f, found := m.File, false
		f.Walk(def, func(id NodeID) {
			if !found && f.Kind(id) == KindCall && m.IsBackwardCall(id) && m.EnclosingFunction(id) == def {
				found = true
			}
		})
		return found
	}).(bool)
}

type backpropagatesKey struct{ def NodeID }

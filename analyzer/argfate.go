package analyzer

import (
	"slices"
	"strings"
)

// ArgUse says what a function of the project does with the graph of one
// positional argument of a call: known is false where the callee is not
// a function the project defines (a library's, a value's method), where
// the argument is not positional, or where a method keeps it in an
// attribute of its object; backprop is set where the callee
// back-propagates it, kept where what the call returns keeps its graph,
// dropped where the callee ends its graph (DropsArgs), or every use of
// the parameter does (CutParams: `advantages = advantages.detach()`).
func (m *Model) ArgUse(call, arg NodeID) (known, backprop, kept, dropped bool) {
	f := m.File
	args := m.Args(call)
	i := slices.Index(args, arg)
	if i < 0 || f.Kind(arg) == KindKeywordArgument || slices.ContainsFunc(args[:i], func(a NodeID) bool { return f.Kind(a) == KindListSplat }) {
		return false, false, false, false
	}
	if k := m.Keeper(call); k != nil && hasParamCall(k.Keeps, i) {
		return false, false, false, false
	}
	backprop = slices.Contains(m.backpropArgs(call), arg)
	def := m.LocalCallee(call)
	ref := m.calleeRef(call)
	if def == NoNode && ref == "" {
		def, ref = m.callMethod(call) // an instance's __call__
	}
	if def != NoNode {
		if f.Kind(def) != KindFunctionDefinition {
			return false, false, false, false
		}
		if m.abstractMethod(def) {
			// A stub its subclasses override (`def loss(self, out):
			// pass`): what they do with the argument is not seen here.
			return backprop, backprop, false, false
		}
		kept = slices.Contains(m.GraphParams(def), i) || m.returnsGraph(def)
		return true, backprop, kept, !kept && !backprop && (m.DropsArgs(def) || slices.Contains(m.CutParams(def), i))
	}
	if ref == "" || strings.HasPrefix(ref, "#") {
		// `mine.train_step(z, opt)`, by the name of methods of the
		// project that back-propagate what they are given there.
		return backprop, backprop, false, false
	}
	o := m.lookup(ref, WantParams|WantReturns|WantKind)
	if o == nil || o.Kind != ObjectFunction {
		return false, false, false, false
	}
	kept = o.ReturnsGraph || slices.Contains(o.GraphParams, i)
	return true, backprop, kept, !kept && !backprop && (o.DropsArgs || slices.Contains(o.CutParams, i))
}

package rules

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/torchlint/torchlint/analyzer"
)

// DeprecatedCudaAmp is TL401.
var DeprecatedCudaAmp = &analyzer.Rule{
	Code:      "TL401",
	Name:      "deprecated-cuda-amp",
	Summary:   "A deprecated `torch.cuda.amp` entry point is used",
	Severity:  analyzer.SeverityWarning,
	Precision: "very-high",
	Tags:      []string{"deprecated", "amp"},
	Fixable:   true,
	Kinds:     []analyzer.Kind{analyzer.KindCall, analyzer.KindDecorator, analyzer.KindAttribute, analyzer.KindIdentifier},
	Check:     checkDeprecatedCudaAmp,
	Doc: `## What it does
Checks for uses of ` + "`torch.cuda.amp.autocast`" + `, ` + "`torch.cuda.amp.GradScaler`" + `,
` + "`torch.cuda.amp.custom_fwd`" + ` and ` + "`torch.cuda.amp.custom_bwd`" + `, however they are
imported (` + "`from torch.cuda.amp import autocast`" + ` included).

## Why is this bad?
PyTorch deprecated the device-specific AMP entry points in favour of the
device-generic ones in ` + "`torch.amp`" + `, and will remove them. Each emits a
` + "`FutureWarning`" + ` when it runs, which Python's default warning filter
shows once for each line of code that calls it (or, for ` + "`custom_fwd`" + ` and
` + "`custom_bwd`" + `, that decorates with it): a loop does not print it again
(checked with PyTorch 2.11.0). The replacements take the device type as their
first argument. A call of ` + "`torch.cuda.amp.autocast`" + ` that passes ` + "`device_type=`" + `,
written for ` + "`torch.amp.autocast`" + `, raises ` + "`TypeError`" + ` when it runs (an
unexpected keyword argument, checked with PyTorch 2.11.0): the finding says
so, and the fix keeps the keyword.

## Example
` + "```python" + `
scaler = torch.cuda.amp.GradScaler()
with torch.cuda.amp.autocast(dtype=torch.bfloat16):
    loss = model(x)
` + "```" + `

## Use instead
` + "```python" + `
scaler = torch.amp.GradScaler("cuda")
with torch.amp.autocast("cuda", dtype=torch.bfloat16):
    loss = model(x)
` + "```" + `

Not reported, as the fallback for releases before 2.4:
- a branch of an ` + "`if`" + ` whose other branch uses ` + "`torch.amp`" + `
  (` + "`if version.parse(torch.__version__) >= ...`" + `, ` + "`if TORCH_VERSION >= (2, 4)`" + `,
  ` + "`if hasattr(torch, \"amp\")`" + `);
- the code after an ` + "`if`" + ` on the version or on what exists that returns
  the ` + "`torch.amp`" + ` form;
- the ` + "`except`" + ` clause of a ` + "`try`" + ` whose body uses ` + "`torch.amp`" + `;
- a name imported from ` + "`torch.cuda.amp`" + ` in one of those places
  (` + "`try: from torch.amp import GradScaler`" + `
  ` + "`except ImportError: from torch.cuda.amp import GradScaler`" + `).

## Fix safety
The fix is safe: it names the ` + "`torch.amp`" + ` replacement, passes the device
type ` + "`\"cuda\"`" + ` and turns ` + "`autocast`" + `'s positional arguments into keywords,
since the two signatures order them differently. It adds ` + "`import torch`" + `
when the name ` + "`torch`" + ` is unbound. The replacements exist from PyTorch 2.4,
the release that deprecated the old names; code that must still run on
older releases keeps the old names behind a version check, which this rule
does not report.

## Known problems
` + "`torch.cpu.amp`" + ` is deprecated too, but is not reported: this rule is about
the CUDA entry points. A name imported from ` + "`torch.cuda.amp`" + ` is reported
where it is used, not at the import. An entry point kept as a value to call
later (` + "`amp_autocast = torch.cuda.amp.autocast`" + `, or passed as an argument) is
reported where it is taken, without a fix. A version check that returns early is recognised
by the text of its condition (it mentions a version, ` + "`hasattr`" + `, or a
release number such as ` + "`TORCH_2_4`" + `). A check on an older release whose
branches all use ` + "`torch.cuda.amp`" + ` is reported: neither branch is a
fallback.

## References
- [Automatic Mixed Precision package - torch.amp](https://pytorch.org/docs/stable/amp.html)
`,
}

// cudaAmpReplacements maps deprecated names to their torch.amp forms.
var cudaAmpReplacements = map[string]string{
	"torch.cuda.amp.autocast":                 `torch.amp.autocast("cuda", ...)`,
	"torch.cuda.amp.autocast_mode.autocast":   `torch.amp.autocast("cuda", ...)`,
	"torch.cuda.amp.GradScaler":               `torch.amp.GradScaler("cuda", ...)`,
	"torch.cuda.amp.grad_scaler.GradScaler":   `torch.amp.GradScaler("cuda", ...)`,
	"torch.cuda.amp.custom_fwd":               `torch.amp.custom_fwd(device_type="cuda", ...)`,
	"torch.cuda.amp.custom_bwd":               `torch.amp.custom_bwd(device_type="cuda")`,
	"torch.cuda.amp.autocast_mode.custom_fwd": `torch.amp.custom_fwd(device_type="cuda", ...)`,
	"torch.cuda.amp.autocast_mode.custom_bwd": `torch.amp.custom_bwd(device_type="cuda")`,
}

func checkDeprecatedCudaAmp(p *analyzer.Pass, n analyzer.NodeID) {
	f, m := p.File, p.Model
	var target analyzer.NodeID
	if k := f.Kind(n); k == analyzer.KindAttribute || k == analyzer.KindIdentifier {
		checkCudaAmpValue(p, n)
		return
	}
	if f.Kind(n) == analyzer.KindDecorator {
		// A bare decorator (@custom_bwd); a called one is seen as a call.
		target = f.FirstChild(n)
		if f.Kind(target) == analyzer.KindCall {
			return
		}
	} else {
		target = f.Field(n, analyzer.FieldFunction)
	}
	q := m.QualifiedName(target)
	use, ok := cudaAmpReplacements[q]
	if !ok || versionFallback(m, n) {
		return
	}
	if strings.HasSuffix(q, ".autocast") && f.Kind(n) == analyzer.KindCall && m.Keyword(n, "device_type") != analyzer.NoNode {
		// `torch.cuda.amp.autocast(device_type="cuda", ...)`: written for
		// torch.amp, whose first parameter this one does not have.
		p.ReportFix(target, fmt.Sprintf("`%s` takes no `device_type`: this call raises `TypeError` (an unexpected keyword "+
			"argument); `torch.amp.autocast` takes it", q), cudaAmpFix(m, n, target, q))
		return
	}
	p.ReportFix(target, fmt.Sprintf("`%s` is deprecated (a `FutureWarning` once for this line, and removal in a later release); use `%s`", q, use), cudaAmpFix(m, n, target, q))
}

// cudaAmpBases are the last names of the deprecated entry points.
var cudaAmpBases = map[string]bool{"autocast": true, "GradScaler": true, "custom_fwd": true, "custom_bwd": true}

// checkCudaAmpValue reports a deprecated entry point taken as a value to
// call later (`amp_autocast = torch.cuda.amp.autocast`, an argument, a
// return), which the call and decorator checks never see.
func checkCudaAmpValue(p *analyzer.Pass, n analyzer.NodeID) {
	f, m := p.File, p.Model
	name := n
	if f.Kind(n) == analyzer.KindAttribute {
		name = f.Field(n, analyzer.FieldAttribute)
	}
	if !cudaAmpBases[f.Text(name)] {
		return
	}
	if f.Kind(n) == analyzer.KindIdentifier && f.N(n).Field == analyzer.FieldAttribute {
		return // the last name of an attribute chain, seen with the chain
	}
	// Only where the value is kept or handed on: an annotation or an
	// isinstance test constructs nothing.
	switch parent := f.Parent(n); f.Kind(parent) {
	case analyzer.KindAssignment:
		if f.Field(parent, analyzer.FieldRight) != n {
			return
		}
	case analyzer.KindKeywordArgument:
		if f.Field(parent, analyzer.FieldValue) != n {
			return
		}
	case analyzer.KindArgumentList:
		switch m.CallName(f.Parent(parent)) {
		case "isinstance", "issubclass", "hasattr", "getattr":
			return
		}
	case analyzer.KindReturnStatement, analyzer.KindConditionalExpression, analyzer.KindBooleanOperator,
		analyzer.KindTuple, analyzer.KindList, analyzer.KindExpressionList:
	default:
		return
	}
	q := m.QualifiedName(n)
	use, ok := cudaAmpReplacements[q]
	if !ok || versionFallback(m, n) {
		return
	}
	bound := `"cuda"`
	if strings.HasPrefix(use, "torch.amp.custom_") {
		bound = `device_type="cuda"`
	}
	p.Report(n, fmt.Sprintf("`%s` is deprecated (a `FutureWarning` once for each line that calls the value kept here, and removal in a later release); keep `functools.partial(%s, %s)` instead",
		q, use[:strings.IndexByte(use, '(')], bound))
}

// autocastParams are the positional parameters of torch.cuda.amp.autocast,
// which torch.amp.autocast takes in another order after the device type.
var autocastParams = []string{"enabled", "dtype", "cache_enabled"}

// cudaAmpFix rewrites a deprecated call or decorator to its torch.amp
// form, or returns nil when it cannot do so exactly (a `*args` splat, or
// no way to name torch).
func cudaAmpFix(m *analyzer.Model, n, target analyzer.NodeID, q string) *analyzer.Fix {
	f := m.File
	base := q[strings.LastIndexByte(q, '.')+1:]
	var edits []analyzer.Edit
	// The module torch: the chain's own root when it is torch
	// (`th.cuda.amp.autocast` becomes `th.amp.autocast`), else the name
	// torch, imported when unbound.
	root := "torch"
	if r := chainRoot(f, target); r != target && m.QualifiedName(r) == "torch" {
		root = f.Text(r)
	} else {
		imp, ok := torchName(m, n)
		if !ok {
			return nil
		}
		if imp != nil {
			edits = append(edits, *imp)
		}
	}
	callee := root + ".amp." + base
	tn := f.N(target)
	if f.Kind(n) == analyzer.KindDecorator {
		// A bare @custom_fwd / @custom_bwd.
		edits = append(edits, analyzer.Replace(tn.Start, tn.End, callee+`(device_type="cuda")`))
		return &analyzer.Fix{Message: "Use `" + callee + "`", Applicability: analyzer.Safe, Edits: edits}
	}
	args := f.Field(n, analyzer.FieldArguments)
	if f.Kind(args) != analyzer.KindArgumentList {
		return nil
	}
	var positional []analyzer.NodeID
	first := analyzer.NoNode
	splat := false
	f.Children(args, func(c analyzer.NodeID) bool {
		switch f.Kind(c) {
		case analyzer.KindComment:
			return true
		case analyzer.KindListSplat:
			splat = true
		case analyzer.KindKeywordArgument, analyzer.KindDictionarySplat:
		default:
			positional = append(positional, c)
		}
		if first == analyzer.NoNode {
			first = c
		}
		return true
	})
	if splat {
		return nil
	}
	edits = append(edits, analyzer.Replace(tn.Start, tn.End, callee))
	switch base {
	case "custom_fwd", "custom_bwd":
		if first == analyzer.NoNode {
			edits = append(edits, analyzer.Insert(f.N(args).Start+1, `device_type="cuda"`))
		} else {
			e, _ := appendArgument(f, n, `device_type="cuda"`)
			edits = append(edits, e)
		}
	default: // autocast, GradScaler: the device type comes first
		if base == "autocast" && m.Keyword(n, "device_type") != analyzer.NoNode {
			// Given already, by keyword: the new callee takes it as is.
			if len(positional) > 0 {
				return nil
			}
			break
		}
		// Edits at one offset apply in the order given: the device type
		// goes before `enabled=` when both land on the first argument.
		if first == analyzer.NoNode {
			edits = append(edits, analyzer.Insert(f.N(args).Start+1, `"cuda"`))
		} else {
			edits = append(edits, analyzer.Insert(f.N(first).Start, `"cuda", `))
		}
		if base == "autocast" {
			if len(positional) > len(autocastParams) {
				return nil
			}
			for i, a := range positional {
				edits = append(edits, analyzer.Insert(f.N(a).Start, autocastParams[i]+"="))
			}
		}
	}
	return &analyzer.Fix{Message: "Use `" + callee + "`", Applicability: analyzer.Safe, Edits: edits}
}

// chainRoot returns the identifier an attribute chain starts from.
func chainRoot(f *analyzer.File, e analyzer.NodeID) analyzer.NodeID {
	for f.Kind(e) == analyzer.KindAttribute {
		e = f.Field(e, analyzer.FieldObject)
	}
	return e
}

// versionFallback reports whether n is the old-PyTorch branch of a
// version check whose other branch already uses torch.amp: a conditional
// expression (`torch.amp.GradScaler(...) if TORCH_2_4 else
// torch.cuda.amp.GradScaler()`), an if statement on the version, or the
// except clause of a try whose body uses torch.amp; or is a use of a name
// imported so.
func versionFallback(m *analyzer.Model, n analyzer.NodeID) bool {
	f := m.File
	if fallbackAt(m, n) {
		return true
	}
	target := n
	if f.Kind(n) == analyzer.KindCall {
		target = f.Field(n, analyzer.FieldFunction)
	}
	if root := chainRoot(f, f.Unparen(target)); f.Kind(root) == analyzer.KindIdentifier {
		if b := m.Resolve(root); b != nil && b.Kind == analyzer.BindImport && fallbackAt(m, b.Stmt) {
			return true
		}
	}
	return false
}

// versionCheck matches the conditions that test PyTorch's version or
// whether an API exists: `torch.__version__`, `version.parse(...)`,
// `TORCH_VERSION`, `hasattr(torch, "amp")`, `is_torch_2_4`.
var versionCheck = regexp.MustCompile(`(?i)version|hasattr\(|torch_?\d|\d_\d`)

// fallbackAt reports whether n lies in one branch of a choice whose
// other branch uses torch.amp, after an if on the version that returns
// it, or in the except clause of a try whose body uses it, within its
// function. A version check whose branches all use torch.cuda.amp (one on
// a release before 1.10) is no fallback.
func fallbackAt(m *analyzer.Model, n analyzer.NodeID) bool {
	f := m.File
	for c := n; c != analyzer.NoNode; c = f.Parent(c) {
		p := f.Parent(c)
		switch f.Kind(p) {
		case analyzer.KindFunctionDefinition, analyzer.KindClassDefinition:
			return false
		case analyzer.KindConditionalExpression:
			if f.N(c).Field != analyzer.FieldCondition && usesTorchAmp(m, p, c) {
				return true
			}
		case analyzer.KindIfStatement:
			if f.N(c).Field == analyzer.FieldCondition {
				continue
			}
			if usesTorchAmp(m, p, c) {
				return true
			}
		case analyzer.KindTryStatement:
			if f.Kind(c) == analyzer.KindExceptClause && usesTorchAmp(m, f.Field(p, analyzer.FieldBody), analyzer.NoNode) {
				return true
			}
		case analyzer.KindBlock, analyzer.KindModule:
			if returnedBefore(m, c) {
				return true
			}
		}
	}
	return false
}

// usesTorchAmp reports whether region, outside its part skip, names the
// device-generic AMP API: torch.amp, or torch.autocast.
func usesTorchAmp(m *analyzer.Model, region, skip analyzer.NodeID) bool {
	f := m.File
	found := false
	f.Walk(region, func(id analyzer.NodeID) {
		if found || skip != analyzer.NoNode && f.Contains(skip, id) {
			return
		}
		switch f.Kind(id) {
		case analyzer.KindAttribute, analyzer.KindIdentifier:
			q := m.QualifiedName(id)
			found = q == "torch.amp" || q == "torch.autocast" || strings.HasPrefix(q, "torch.amp.")
		case analyzer.KindImportFromStatement:
			mod := f.Text(f.Field(id, analyzer.FieldModuleName))
			found = mod == "torch.amp" || strings.HasPrefix(mod, "torch.amp.")
		}
	})
	return found
}

// returnedBefore reports whether an if statement before stmt, in its
// block, returns a torch.amp form under a version check: `if
// hasattr(torch, "amp"): return torch.amp.autocast(...)`, so that stmt
// runs only where that form is missing.
func returnedBefore(m *analyzer.Model, stmt analyzer.NodeID) bool {
	f := m.File
	for _, s := range f.ChildList(f.Parent(stmt)) {
		if s == stmt {
			return false
		}
		if f.Kind(s) != analyzer.KindIfStatement || !versionCheck.MatchString(f.Text(f.Field(s, analyzer.FieldCondition))) {
			continue
		}
		body := f.Field(s, analyzer.FieldConsequence)
		returns := false
		f.Walk(body, func(id analyzer.NodeID) {
			returns = returns || f.Kind(id) == analyzer.KindReturnStatement
		})
		if returns && usesTorchAmp(m, body, analyzer.NoNode) {
			return true
		}
	}
	return false
}

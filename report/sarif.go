package report

import (
	"encoding/json"
	"io"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/owenrumney/go-sarif/v2/sarif"

	"github.com/torchlint/torchlint/analyzer"
	"github.com/torchlint/torchlint/rules"
)

const informationURI = "https://github.com/torchlint/torchlint"

// writeSARIF writes a SARIF 2.1.0 log for GitHub code scanning: every
// rule is described before any result, and results point at
// repository-relative URIs under %SRCROOT%. The bytes are marshalled here
// rather than with the library's writers.
func writeSARIF(w io.Writer, r *Report) error {
	log, err := sarif.New(sarif.Version210, true)
	if err != nil {
		return err
	}
	run := sarif.NewRunWithInformationURI("torchlint", informationURI)
	v := strings.TrimPrefix(r.Version, "v")
	run.Tool.Driver.Version = &v
	run.Tool.Driver.SemanticVersion = &v
	run.ColumnKind = "unicodeCodePoints"
	index := map[*analyzer.Rule]uint{}
	for i, rule := range rules.All {
		index[rule] = uint(i)
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRule(rule))
	}
	run.Results = make([]*sarif.Result, 0, len(r.Diagnostics))
	for i := range r.Diagnostics {
		d := &r.Diagnostics[i]
		idx := index[d.Rule]
		id := d.Rule.Code
		level := d.Rule.Severity.String()
		region := &sarif.Region{StartLine: intp(d.Pos.Line), StartColumn: intp(d.Pos.Column)}
		if d.Cell > 0 {
			// A notebook: the line of the .ipynb file that holds the
			// finding's first line, where GitHub shows it.
			region = &sarif.Region{StartLine: intp(d.RawLine)}
		} else if d.EndPos.Line > 0 {
			region.EndLine = intp(d.EndPos.Line)
			region.EndColumn = intp(d.EndPos.Column)
			if d.EndPos.Line == d.Pos.Line && d.EndPos.Column <= d.Pos.Column {
				region.EndColumn = intp(d.Pos.Column + 1)
			}
		}
		uri, base := sarifURI(r, d.Path)
		loc := &sarif.ArtifactLocation{URI: &uri}
		if base != "" {
			loc.URIBaseId = &base
		}
		rank := float32(d.Confidence().Rank())
		props := sarif.Properties{"confidence": d.Confidence().String()}
		if len(d.Assumed) > 0 {
			props["assumed"] = d.Assumed
		}
		if d.Once != "" {
			props["once"] = d.Once
		}
		if d.Seldom != "" {
			props["seldom"] = d.Seldom
		}
		run.Results = append(run.Results, &sarif.Result{
			PropertyBag:      sarif.PropertyBag{Properties: props},
			Rank:             &rank,
			RuleID:           &id,
			RuleIndex:        &idx,
			Level:            &level,
			Message:          sarif.Message{Text: &d.Message},
			Locations:        []*sarif.Location{{PhysicalLocation: &sarif.PhysicalLocation{ArtifactLocation: loc, Region: region}}},
			RelatedLocations: sarifRelated(r, d),
			Fixes:            sarifFixes(d, loc), // none for notebooks: their edits are in cell coordinates
		})
	}
	log.Runs = append(log.Runs, run)
	b, err := json.MarshalIndent(log, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

func intp(i int) *int { return &i }

// sarifRelated describes the other places a finding involves (the helper
// in another file that a call runs), numbered from 1.
func sarifRelated(r *Report, d *analyzer.Diagnostic) []*sarif.Location {
	var out []*sarif.Location
	for i, rel := range d.Related {
		uri, base := sarifURI(r, rel.Path)
		loc := &sarif.ArtifactLocation{URI: &uri}
		if base != "" {
			loc.URIBaseId = &base
		}
		region := &sarif.Region{StartLine: intp(rel.Line)}
		switch {
		case rel.Cell > 0:
			region.StartLine = intp(rel.RawLine) // the line of the .ipynb file, as for the result
		case rel.Column > 0:
			region.StartColumn = intp(rel.Column)
		}
		msg := rel.Message
		out = append(out, &sarif.Location{
			Id:               uintp(uint(i + 1)),
			PhysicalLocation: &sarif.PhysicalLocation{ArtifactLocation: loc, Region: region},
			Message:          &sarif.Message{Text: &msg},
		})
	}
	return out
}

func uintp(u uint) *uint { return &u }

// sarifFixes describes a finding's fix as SARIF replacements in the same
// artifact; an unsafe fix says so in its description.
func sarifFixes(d *analyzer.Diagnostic, loc *sarif.ArtifactLocation) []*sarif.Fix {
	if d.Fix == nil || d.Cell > 0 {
		return nil
	}
	desc := d.Fix.Message
	if d.Fix.Applicability == analyzer.Unsafe {
		desc += " (unsafe: may change behaviour; review before applying)"
	}
	change := &sarif.ArtifactChange{ArtifactLocation: *loc}
	for _, e := range d.Fix.Edits {
		text := e.New
		change.Replacements = append(change.Replacements, &sarif.Replacement{
			DeletedRegion: sarif.Region{
				StartLine: intp(e.Pos.Line), StartColumn: intp(e.Pos.Column),
				EndLine: intp(e.EndPos.Line), EndColumn: intp(e.EndPos.Column),
			},
			InsertedContent: &sarif.ArtifactContent{Text: &text},
		})
	}
	return []*sarif.Fix{{Description: &sarif.Message{Text: &desc}, ArtifactChanges: []*sarif.ArtifactChange{change}}}
}

func sarifRule(r *analyzer.Rule) *sarif.ReportingDescriptor {
	name := ruleNamePascal(r.Name)
	help := r.Doc
	text := markdownToText(help)
	uri := r.URL()
	full := r.Summary + "."
	return &sarif.ReportingDescriptor{
		ID:                   r.Code,
		Name:                 &name,
		ShortDescription:     &sarif.MultiformatMessageString{Text: &r.Summary},
		FullDescription:      &sarif.MultiformatMessageString{Text: &full},
		Help:                 &sarif.MultiformatMessageString{Text: &text, Markdown: &help},
		HelpURI:              &uri,
		DefaultConfiguration: &sarif.ReportingConfiguration{Level: r.Severity.String()},
		Properties: sarif.Properties{
			"tags":             r.Tags,
			"precision":        r.Precision,
			"problem.severity": r.Severity.String(),
		},
	}
}

// ruleNamePascal turns loss-accumulated-with-graph into
// LossAccumulatedWithGraph: SARIF rule names are identifiers.
func ruleNamePascal(kebab string) string {
	var b strings.Builder
	for _, part := range strings.Split(kebab, "-") {
		if part == "" {
			continue
		}
		b.WriteString(strings.ToUpper(part[:1]) + part[1:])
	}
	return b.String()
}

var (
	mdLink  = regexp.MustCompile(`\[([^\]]*)\]\(([^)]*)\)`)
	mdFence = regexp.MustCompile("(?m)^```[a-z]*\n?")
	mdHead  = regexp.MustCompile(`(?m)^## `)
)

// markdownToText renders the rule doc as plain text for SARIF's help.text.
func markdownToText(md string) string {
	s := mdFence.ReplaceAllString(md, "")
	s = mdLink.ReplaceAllString(s, "$1 ($2)")
	s = strings.ReplaceAll(s, "`", "")
	s = strings.ReplaceAll(s, "**", "")
	s = mdHead.ReplaceAllString(s, "")
	return strings.TrimSpace(s) + "\n"
}

// sarifURI returns a path relative to the working directory with the
// %SRCROOT% base, or an absolute file URI for a path outside it.
func sarifURI(r *Report, p string) (uri, base string) {
	abs, err := filepath.Abs(p)
	if err != nil {
		abs = p
	}
	if rel, err := filepath.Rel(r.Cwd, abs); err == nil && !strings.HasPrefix(rel, "..") {
		return (&url.URL{Path: filepath.ToSlash(rel)}).EscapedPath(), "%SRCROOT%"
	}
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String(), ""
}

package main

import (
	"bytes"
	"encoding/xml"
	"strings"
	"testing"
)

// TestPlot draws a table of two series, one with a point left out: the
// SVG is well-formed, with one line per series through its points, and a
// malformed table is refused.
func TestPlot(t *testing.T) {
	table := "files\tparse alone\tcheck <cold>\n500\t1.5\t2.0\n1000\t3.1\t-\n2000\t6.0\t8.4\n"
	var out bytes.Buffer
	if err := plot([]string{"time & files", "", "seconds"}, strings.NewReader(table), &out); err != nil {
		t.Fatal(err)
	}
	svg := out.String()
	dec := xml.NewDecoder(strings.NewReader(svg))
	for {
		if _, err := dec.Token(); err != nil {
			if err.Error() != "EOF" {
				t.Fatalf("not well-formed XML: %v\n%s", err, svg)
			}
			break
		}
	}
	if n := strings.Count(svg, "<polyline"); n != 2 {
		t.Errorf("%d lines, want 2", n)
	}
	if n := strings.Count(svg, "<circle"); n != 5 {
		t.Errorf("%d points, want 5 (one left out)", n)
	}
	for _, want := range []string{"time &amp; files", "check &lt;cold&gt;", ">files<", ">seconds<"} {
		if !strings.Contains(svg, want) {
			t.Errorf("no %q in the plot", want)
		}
	}
	for _, bad := range []string{"", "files\n", "files\ta\n1\t2\t3\n", "files\ta\nx\t1\n"} {
		if err := plot([]string{"t", "", "s"}, strings.NewReader(bad), &out); err == nil {
			t.Errorf("table %q was plotted", bad)
		}
	}
}

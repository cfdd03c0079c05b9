package main

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// series is one line of a plot: a name and its points.
type series struct {
	name   string
	points [][2]float64 // x, y
}

// readSeries reads a table of tab-separated columns: a header row naming
// the x column then each series, and one row of numbers per x. A cell of
// "-" leaves the point out.
func readSeries(r io.Reader) (xName string, out []series, err error) {
	sc := bufio.NewScanner(r)
	row := 0
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cells := strings.Split(line, "\t")
		row++
		if row == 1 {
			if len(cells) < 2 {
				return "", nil, fmt.Errorf("header %q: want an x column and at least one series", line)
			}
			xName = cells[0]
			for _, c := range cells[1:] {
				out = append(out, series{name: c})
			}
			continue
		}
		if len(cells) != len(out)+1 {
			return "", nil, fmt.Errorf("row %d has %d columns, want %d", row, len(cells), len(out)+1)
		}
		x, err := strconv.ParseFloat(cells[0], 64)
		if err != nil {
			return "", nil, fmt.Errorf("row %d: %w", row, err)
		}
		for i, c := range cells[1:] {
			if c == "-" {
				continue
			}
			y, err := strconv.ParseFloat(c, 64)
			if err != nil {
				return "", nil, fmt.Errorf("row %d: %w", row, err)
			}
			out[i].points = append(out[i].points, [2]float64{x, y})
		}
	}
	if err := sc.Err(); err != nil {
		return "", nil, err
	}
	if row < 2 {
		return "", nil, fmt.Errorf("no rows of numbers")
	}
	return xName, out, nil
}

// niceStep returns a round step (1, 2 or 5 times a power of ten) that
// cuts span into about n parts.
func niceStep(span float64, n int) float64 {
	if span <= 0 {
		return 1
	}
	raw := span / float64(n)
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= raw {
			return m * p
		}
	}
	return 10 * p
}

// plotSVG draws the series as lines over a linear grid from 0, with the
// axes labelled and a legend, as a standalone SVG document.
func plotSVG(w io.Writer, title, xName, yName string, ss []series) error {
	const width, height = 640.0, 400.0
	const left, right, top, bottom = 70.0, 20.0, 40.0, 55.0
	maxX, maxY := 0.0, 0.0
	for _, s := range ss {
		for _, p := range s.points {
			maxX, maxY = math.Max(maxX, p[0]), math.Max(maxY, p[1])
		}
	}
	xStep, yStep := niceStep(maxX, 6), niceStep(maxY, 5)
	maxX, maxY = math.Ceil(maxX/xStep)*xStep, math.Ceil(maxY/yStep)*yStep
	if maxX == 0 {
		maxX = 1
	}
	if maxY == 0 {
		maxY = 1
	}
	px := func(x float64) float64 { return left + x/maxX*(width-left-right) }
	py := func(y float64) float64 { return height - bottom - y/maxY*(height-top-bottom) }
	colors := []string{"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e"}
	var b strings.Builder
	fmt.Fprintf(&b, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%g\" height=\"%g\" viewBox=\"0 0 %g %g\" font-family=\"sans-serif\" font-size=\"12\">\n", width, height, width, height)
	fmt.Fprintf(&b, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n")
	fmt.Fprintf(&b, "<text x=\"%g\" y=\"22\" font-size=\"14\" text-anchor=\"middle\">%s</text>\n", width/2, escapeXML(title))
	for x := 0.0; x <= maxX+xStep/2; x += xStep {
		fmt.Fprintf(&b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", px(x), py(0), px(x), py(maxY))
		fmt.Fprintf(&b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%g</text>\n", px(x), py(0)+16, x)
	}
	for y := 0.0; y <= maxY+yStep/2; y += yStep {
		fmt.Fprintf(&b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", px(0), py(y), px(maxX), py(y))
		fmt.Fprintf(&b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n", px(0)-6, py(y)+4, y)
	}
	fmt.Fprintf(&b, "<text x=\"%g\" y=\"%g\" text-anchor=\"middle\">%s</text>\n", (left+width-right)/2, height-12, escapeXML(xName))
	fmt.Fprintf(&b, "<text transform=\"translate(16 %g) rotate(-90)\" text-anchor=\"middle\">%s</text>\n", (top+height-bottom)/2, escapeXML(yName))
	for i, s := range ss {
		c := colors[i%len(colors)]
		var pts []string
		for _, p := range s.points {
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", px(p[0]), py(p[1])))
		}
		fmt.Fprintf(&b, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"%s\"/>\n", c, strings.Join(pts, " "))
		for _, p := range s.points {
			fmt.Fprintf(&b, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>\n", px(p[0]), py(p[1]), c)
		}
		ly := top + 8 + float64(i)*18
		fmt.Fprintf(&b, "<line x1=\"%g\" y1=\"%g\" x2=\"%g\" y2=\"%g\" stroke=\"%s\" stroke-width=\"2\"/>\n", left+12, ly, left+36, ly, c)
		fmt.Fprintf(&b, "<text x=\"%g\" y=\"%g\">%s</text>\n", left+42, ly+4, escapeXML(s.name))
	}
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func escapeXML(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "\"", "&quot;").Replace(s)
}

// plot reads a table (see readSeries) from in and writes its SVG plot
// to out.
func plot(args []string, in io.Reader, out io.Writer) error {
	if len(args) != 3 {
		return fmt.Errorf("plot needs a title, the x axis' label and the y axis' label")
	}
	xName, ss, err := readSeries(in)
	if err != nil {
		return err
	}
	if args[1] != "" {
		xName = args[1]
	}
	return plotSVG(out, args[0], xName, args[2], ss)
}

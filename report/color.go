package report

import (
	"io"
	"os"
)

// UseColor decides whether the text formats written to w are coloured
// (--color). A report written to a file never is; "always" and "never"
// say so; "auto" colours only a terminal, and a non-empty NO_COLOR turns
// it off and a non-empty FORCE_COLOR on, in that order.
func UseColor(mode string, w io.Writer, toFile bool, getenv func(string) string) bool {
	switch {
	case toFile || mode == "never":
		return false
	case mode == "always":
		return true
	case getenv("NO_COLOR") != "":
		return false
	case getenv("FORCE_COLOR") != "":
		return true
	}
	return isTerminal(w)
}

// isTerminal reports whether w is a character device such as a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}

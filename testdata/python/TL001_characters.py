"""TL001: a character no token may hold, outside strings and comments
(a zero-width space pasted from a web page), is where CPython stops,
though a syntax error comes before it: it reads the whole source for
such characters, and for strings left open, when its parser fails."""
import math


def scale_all(values, factor:
    return [v * factor for v in values]


λ = 0.5  # an identifier may be any letter
note = "a zero-width space​ in a string is text"  # and so may a string hold one ​
scale = λ * 2​  # want: TL001 "invalid non-printable character U\+200B"

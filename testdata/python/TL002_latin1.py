# Latin-1 bytes below are not valid UTF-8
name = "café"  # want: TL002

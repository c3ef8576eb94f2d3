package main

import "flag"

// parseArgs parses args with fs and returns the positional arguments.
//
// Unless passthrough is set, flags may come after positional arguments, as in
// `converge run FILE --output jsonl` (the flag package alone stops at FILE),
// and a `--` ends the flags: everything after it is positional. With
// passthrough, the flags end at the first positional argument, and it and all
// that follow are returned as they are, flags included.
//
// One ambiguity is accepted: a flag whose value is the word `--`
// (`--addr --`) also ends the flags.
func parseArgs(fs *flag.FlagSet, args []string, passthrough bool) ([]string, error) {
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if passthrough {
		return fs.Args(), nil
	}
	var positional []string
	for rest := fs.Args(); len(rest) > 0; rest = fs.Args() {
		consumed := len(args) - len(rest)
		if consumed > 0 && args[consumed-1] == "--" {
			return append(positional, rest...), nil
		}
		positional = append(positional, rest[0])
		args = rest[1:]
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
	}
	return positional, nil
}

// given reports whether the flag called name was set on the command line,
// even to its default or zero value.
func given(fs *flag.FlagSet, name string) bool {
	found := false
	fs.Visit(func(f *flag.Flag) { found = found || f.Name == name })
	return found
}

package main

import (
	"flag"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseArgs(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		args        []string
		passthrough bool
		wantArgs    []string
		wantOutput  string
		wantErr     string
	}{
		{name: "nothing", args: nil, wantArgs: nil, wantOutput: "text"},
		{name: "flags before the argument", args: []string{"--output", "jsonl", "f.yaml"}, wantArgs: []string{"f.yaml"}, wantOutput: "jsonl"},
		{name: "flags after the argument", args: []string{"f.yaml", "--output", "jsonl"}, wantArgs: []string{"f.yaml"}, wantOutput: "jsonl"},
		{name: "flags between arguments", args: []string{"a.yaml", "--output=jsonl", "b.yaml"}, wantArgs: []string{"a.yaml", "b.yaml"}, wantOutput: "jsonl"},
		{name: "single dash works too", args: []string{"f.yaml", "-output", "jsonl"}, wantArgs: []string{"f.yaml"}, wantOutput: "jsonl"},
		{name: "-- ends the flags", args: []string{"a", "--", "--output", "b"}, wantArgs: []string{"a", "--output", "b"}, wantOutput: "text"},
		{name: "- is an argument (stdin)", args: []string{"-", "--output", "jsonl"}, wantArgs: []string{"-"}, wantOutput: "jsonl"},
		{name: "unknown flag after an argument", args: []string{"f.yaml", "--bogus"}, wantErr: "flag provided but not defined: -bogus"},
		{name: "passthrough stops at the first argument", args: []string{"--output", "jsonl", "scale", "deploy/web", "--replicas=3"},
			passthrough: true, wantArgs: []string{"scale", "deploy/web", "--replicas=3"}, wantOutput: "jsonl"},
		{name: "passthrough with no flags", args: []string{"get", "pods", "-o", "wide"},
			passthrough: true, wantArgs: []string{"get", "pods", "-o", "wide"}, wantOutput: "text"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fs := flag.NewFlagSet("test", flag.ContinueOnError)
			fs.SetOutput(io.Discard)
			output := fs.String("output", "text", "")
			got, err := parseArgs(fs, tc.args, tc.passthrough)
			if tc.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.wantArgs, got)
			assert.Equal(t, tc.wantOutput, *output)
		})
	}
}

package kubectl

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSplitReadsWordsAsAShellDoes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		line string
		want []string
	}{
		{"blanks separate words", "  get   pods\t-o wide ", []string{"get", "pods", "-o", "wide"}},
		{"single quotes keep everything", `patch deploy web -p '{"spec":{"paused":true}}'`, []string{"patch", "deploy", "web", "-p", `{"spec":{"paused":true}}`}},
		{"double quotes keep spaces", `annotate deploy web "kubernetes.io/change-cause=v2 rollout"`, []string{"annotate", "deploy", "web", "kubernetes.io/change-cause=v2 rollout"}},
		{"backslash escapes in double quotes", `-p "{\"a\":\"\$x\\\"}"`, []string{"-p", `{"a":"$x\"}`}},
		{"other backslashes stay in double quotes", `"a\nb"`, []string{`a\nb`}},
		{"backslash outside quotes", `a\ b \'c`, []string{"a b", "'c"}},
		{"quotes inside a word", `--patch='{"a":1}'x`, []string{`--patch={"a":1}x`}},
		{"empty quoted word", `label pod x a='' ""`, []string{"label", "pod", "x", "a=", ""}},
		{"escaped newline joins", "get \\\npods", []string{"get", "pods"}},
		{"empty line", "   ", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := Split(tc.line)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestSplitRejectsUnterminatedQuotes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		line string
		want error
	}{
		{`get 'pods`, ErrUnterminatedSingleQuote},
		{`get "pods`, ErrUnterminatedDoubleQuote},
		{`get "po\"`, ErrUnterminatedDoubleQuote},
		{`get pods\`, ErrTrailingBackslash},
		{`get pods | grep web`, ErrPipe},
		{`get pods -o name|wc -l`, ErrPipe},
	}
	for _, tc := range tests {
		t.Run(tc.line, func(t *testing.T) {
			t.Parallel()
			_, err := Split(tc.line)
			assert.ErrorIs(t, err, tc.want)
		})
	}
}

func TestQuoteWordRoundTrips(t *testing.T) {
	t.Parallel()
	for _, w := range []string{"", "web", "a|b", "a b", `{"a":1}`, "it's", "--patch={\"x\":\"y z\"}", "a\tb", "-l", "k=v,x!=y"} {
		got, err := Split(quoteWord(w))
		require.NoError(t, err, w)
		assert.Equal(t, []string{w}, got, w)
	}
}

// TestPipesAreRefused: a | outside quotes ends the line with an error that
// says pipes are not supported, at the |, not passed on as an argument;
// quoted, it is part of a word.
func TestPipesAreRefused(t *testing.T) {
	t.Parallel()
	pe := Check("get pods | grep web")
	require.NotNil(t, pe)
	assert.Equal(t, 9, pe.Offset)
	assert.Contains(t, pe.Msg, "pipes (|) are not supported")
	words, err := Split(`annotate deploy web note='a|b'`)
	require.NoError(t, err)
	assert.Equal(t, []string{"annotate", "deploy", "web", "note=a|b"}, words)
}

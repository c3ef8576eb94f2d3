package k8sdiff

import (
	"context"
	"flag"
	"io"

	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/klog/v2"
)

// init keeps the controllers quiet and off the wall clock:
//   - utilruntime.HandleError logs through klog and then sleeps to rate-limit
//     itself against a time it took from the real clock at start-up; inside
//     a synctest bubble that sleep lasts until the real date. The harness
//     drops those errors (what a sync did is read from the fake API server).
//   - klog writes nothing.
func init() {
	utilruntime.ErrorHandlers = []utilruntime.ErrorHandler{func(context.Context, error, string, ...interface{}) {}}
	fs := flag.NewFlagSet("klog", flag.ContinueOnError)
	klog.InitFlags(fs)
	_ = fs.Set("logtostderr", "false")
	_ = fs.Set("alsologtostderr", "false")
	klog.SetOutput(io.Discard)
}

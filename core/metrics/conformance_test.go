package metrics_test

import (
	"testing"

	"converge/core/controller"
	"converge/core/metrics"
	"converge/core/simtest/controllertest"
)

func TestConformance(t *testing.T) {
	t.Parallel()
	controllertest.Run(t, controllertest.Options{
		Name:      metrics.Component,
		New:       func() controller.Controller { return metrics.New() },
		Scenarios: []string{"hpa-scale-on-load", "hpa-undoes-kubectl-scale", "hpa-gitops-fight"},
	})
}

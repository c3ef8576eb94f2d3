package podautoscaler_test

import (
	"testing"

	"converge/core/controller"
	"converge/core/controller/podautoscaler"
	"converge/core/simtest/controllertest"
)

func TestConformance(t *testing.T) {
	t.Parallel()
	controllertest.Run(t, controllertest.Options{
		Name:      podautoscaler.Component,
		New:       func() controller.Controller { return podautoscaler.New() },
		Scenarios: []string{"hpa-scale-on-load", "hpa-undoes-kubectl-scale", "hpa-gitops-fight"},
	})
}

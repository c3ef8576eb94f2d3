package scheduler_test

import (
	"testing"

	"converge/core/controller"
	"converge/core/simtest/controllertest"
	"converge/core/scheduler"
)

func TestConformance(t *testing.T) {
	t.Parallel()
	controllertest.Run(t, controllertest.Options{
		Name: scheduler.Component,
		New:  func() controller.Controller { return scheduler.New() },
	})
}

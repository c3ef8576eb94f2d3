package k8sdiff

import (
	"context"
	_ "unsafe" // go:linkname

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	"k8s.io/kubernetes/pkg/controller/deployment"
	"k8s.io/kubernetes/pkg/controller/podautoscaler"
	"k8s.io/kubernetes/pkg/controller/replicaset"
)

// The controllers' sync methods are unexported; the harness reaches them by
// name, as their own tests call them (dc.syncHandler, rsc.syncHandler). The
// names are pinned to k8s.io/kubernetes v1.35.4: a rename breaks the link
// loudly.

//go:linkname syncDeployment k8s.io/kubernetes/pkg/controller/deployment.(*DeploymentController).syncDeployment
func syncDeployment(dc *deployment.DeploymentController, ctx context.Context, key string) error

//go:linkname syncReplicaSet k8s.io/kubernetes/pkg/controller/replicaset.(*ReplicaSetController).syncReplicaSet
func syncReplicaSet(rsc *replicaset.ReplicaSetController, ctx context.Context, key string) error

//go:linkname reconcileAutoscaler k8s.io/kubernetes/pkg/controller/podautoscaler.(*HorizontalController).reconcileAutoscaler
func reconcileAutoscaler(a *podautoscaler.HorizontalController, ctx context.Context, hpa *autoscalingv2.HorizontalPodAutoscaler, key string) error

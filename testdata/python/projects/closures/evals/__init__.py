from evals.scores import eval_ood_detection

"""TL201: the outputs of a pass go through torch.nn.functional ops on
their way to the host; those ops keep nothing and hand the graph on in
what they return."""
import numpy as np
import torch
import torch.nn.functional as F
from torch.nn.functional import adaptive_avg_pool2d


def activations(images, model, batch_size=50):
    n = len(images) // batch_size
    pred_arr = np.empty((n * batch_size, 2048))
    for i in range(n):
        start, end = i * batch_size, (i + 1) * batch_size
        batch = torch.from_numpy(images[start:end]).float()
        pred = model(batch)[0]  # want: TL201(low) "only reach the host"
        if pred.shape[2] != 1 or pred.shape[3] != 1:
            pred = adaptive_avg_pool2d(pred, output_size=(1, 1))
        pred_arr[start:end] = pred.cpu().data.numpy().reshape(batch_size, -1)
    return pred_arr


def fit(images, model, opt, batch_size=50):
    for i in range(len(images) // batch_size):
        batch = torch.from_numpy(images[i * batch_size:(i + 1) * batch_size]).float()
        pred = model(batch)[0]  # ok: pooled, then back-propagated
        loss = F.adaptive_avg_pool2d(pred, output_size=(1, 1)).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()

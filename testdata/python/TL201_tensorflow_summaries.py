"""TL201: a file that imports TensorFlow only to write TensorBoard
summaries (`tf.summary.FileWriter`, as older PyTorch code logs) still
takes a callee named like a model for torch's."""
import tensorflow as tf
import torch

from data import batches_of


class Evaluator:
    def __init__(self, model, log_dir):
        self.model = model
        self.summary_writer = tf.summary.FileWriter(log_dir)

    def eval_one_batch(self, batch):
        outputs = self.model.encoder(batch)  # want: TL201(low)
        return outputs.mean().item()

    def run(self, path):
        return [self.eval_one_batch(b) for b in batches_of(path)]

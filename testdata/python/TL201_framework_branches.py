"""TL201: code for another framework in a torch file. A branch that
tests a framework setting for TensorFlow or Flax runs that framework's
model; a model named for TensorFlow (`tf_model`) is not known to be a
torch one by its name. The torch branch and the torch model beside
them are still judged."""
import torch


class Pipeline:
    def __init__(self, model, framework):
        self.model = model
        self.framework = framework

    def __call__(self, batches):
        out = []
        for tokens in batches:
            if self.framework == "tf":
                out.append(self.model(tokens)[0].numpy())  # ok: TL201 TensorFlow's branch
            elif self.framework == "flax":
                out.append(self.model(tokens)[0].tolist())  # ok: TL201 Flax's branch
            else:
                out.append(self.model(tokens)[0].cpu().numpy())  # want: TL201(low) "self.model\(tokens\)"
        return out


def build_tf(tf_model):
    tfo = tf_model(tf_model.dummy_inputs)  # ok: TL201 named for TensorFlow's model
    print(tfo[0].numpy().sum())


def build_torch(model):
    pto = model(model.dummy_inputs)  # want: TL201(low) "model\(model.dummy_inputs\)"
    print(pto[0].detach().numpy().sum())

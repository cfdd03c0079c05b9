# A name written as a class's that the file binds nowhere (an import the
# file lacks, Keras's `Model` here) is called to build an object, not to
# run a forward pass. A model held under such a name that the file binds
# is still judged, as is an unbound instance's name.
import numpy as np
import torch


def sample_generator(input_dim, dims, noise=0.0):
    inputs = Input(shape=(input_dim,))
    x = inputs
    for d in dims:
        x = Dense(d, activation="relu")(x)

    class Noise(Layer):
        def __init__(self, std=0.0, **kwargs):
            super().__init__(**kwargs)
            self.std = std

        def call(self, x):
            return x + self.std * tf.random.normal(tf.shape(x))

    y = Noise(std=noise)(x)
    return Model(inputs=inputs, outputs=y)


def score(batches):
    G.eval()
    return [G(b).argmax(1).tolist() for b in batches]  # want: TL201 "G\(b\)"


class Classifier(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(4, 2)

    def forward(self, x):
        return self.fc(x)


def classify(batches):
    Model = Classifier()
    Model.eval()
    return [Model(b).argmax(1).tolist() for b in batches]  # want: TL201 "Model\(b\)"


if __name__ == "__main__":

    def test_generator(net=None, layers=None):
        dim = 4
        if layers is None:
            layers = np.random.randint(4, 12, 2)
        if net is None:
            net = sample_generator(dim, layers, noise=0.1)  # ok: TL201 a construction of Keras's Model, imported nowhere
        z = np.random.randn(16, dim)
        x = net(z)
        print(x.numpy().mean(axis=0))
        return x, z, net

    x, z, net = test_generator()

"""TL201: in a file that imports TensorFlow, a callee named like a model
is not taken for torch's by its name alone (the TensorFlow twin of a
conversion check); one the code shows to be torch's still is."""
import tensorflow as tf
import torch


def predict(pt_model, tf_model, inputs):
    pt_model.eval()
    with torch.no_grad():
        pt_out = pt_model(torch.tensor(inputs))
    tf_out = tf_model(tf.constant(inputs), training=False)  # ok: may be TensorFlow's model, by its name alone
    print(float(tf.reduce_max(tf.abs(tf_out - pt_out.numpy()))))


def check(model_path, batches):
    net = torch.load(model_path)
    net.eval()
    for x in batches:
        print(net(x).argmax(1).tolist())  # want: TL201

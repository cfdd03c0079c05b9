import math


class laplace_prior(object):
    def __init__(self, mu, b):
        self.mu, self.b = mu, b

    def loglike(self, x):
        return -math.log(2 * self.b) - abs(x - self.mu) / self.b

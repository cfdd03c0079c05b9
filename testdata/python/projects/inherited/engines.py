from steps import Engine


class SimpleEngine(Engine):
    def __init__(self, net, optimizer):
        self.net, self.optimizer = net, optimizer

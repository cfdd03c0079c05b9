class BaseTrainer:
    @staticmethod
    def optimize(opt, loss):
        opt.zero_grad()
        loss.backward()
        opt.step()


class Engine:
    def model_backward(self, loss):
        loss.backward()

    def model_backward_and_update(self, loss, names=None):
        self.optimizer.zero_grad()
        self.model_backward(loss)
        self.optimizer.step()

"""TL102: `x.item() if flag else x`, where x is made a tensor only under
`if flag:`, stores a number either way; under another condition, the
tensor is stored."""


class Agent:
    def __init__(self, policy, gamma_net, optimizer, gamma, learned_gamma, log_all):
        self.policy = policy
        self.gamma_net = gamma_net
        self.optimizer = optimizer
        self.gamma = gamma
        self.learned_gamma = learned_gamma
        self.log_all = log_all

    def update(self, storage, epochs):
        gammas, raw = [], []
        gamma = self.gamma
        for _ in range(epochs):
            for obs, target in storage.sample():
                if self.learned_gamma:
                    gamma = self.gamma_net(obs).mean()
                loss = (self.policy(obs) * gamma - target).pow(2).mean()
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
                gammas.append(gamma.item() if self.learned_gamma else gamma)  # ok: a tensor only where the flag holds
                raw.append(gamma.item() if self.log_all else gamma)  # want: TL102(high) "keeps each step.s autograd graph reachable after its backward"
        return {"gamma": sum(gammas) / len(gammas), "raw": len(raw)}

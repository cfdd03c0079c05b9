import torch
from torch import nn
from torch.distributions import Categorical


class Agent(nn.Module):
    def __init__(self, envs):
        super().__init__()
        self.actor = nn.Linear(4, 2)
        self.critic = nn.Linear(4, 1)

    def get_value(self, x):
        return self.critic(x)

    def get_action_and_value(self, x, action=None):
        logits = self.actor(x)
        probs = Categorical(logits=logits)
        if action is None:
            action = probs.sample()
        return action, probs.log_prob(action), probs.entropy(), self.critic(x)


def train(envs, steps):
    agent = Agent(envs)
    opt = torch.optim.Adam(agent.parameters())
    obs = torch.zeros(4)
    for _ in range(steps):
        with torch.no_grad():
            action, logprob, _, value = agent.get_action_and_value(obs)
        _, newlogprob, entropy, newvalue = agent.get_action_and_value(obs, action)
        loss = -(newlogprob * value).mean() - entropy.mean()
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    from evals.ppo_eval import evaluate, evaluate_quietly

    train(None, 10)
    evaluate("agent.pt", None, 10, Model=Agent)
    evaluate_quietly("agent.pt", None, 10, Model=Agent)

import unittest

from payroll.run import run_payroll, tax_for, total_cost
from payroll.staff import Contractor, Employee, Engineer, Manager


class PayTest(unittest.TestCase):
    def test_employee_with_allowance(self):
        self.assertEqual(Employee("Ada", 3_600_000, london=True).monthly_pay(), 325_000)

    def test_engineer_on_call(self):
        self.assertEqual(Engineer("Bo", 4_800_000, on_call_weeks=2).monthly_pay(), 424_000)

    def test_manager_gets_the_allowance_and_the_bonus(self):
        manager = Manager("Cy", 6_000_000, london=True, reports=3)
        self.assertEqual(manager.monthly_pay(), 500_000 + 25_000 + 15_000)

    def test_contractor(self):
        self.assertEqual(Contractor("Di", hours=100, hourly_rate_pence=4_500, london=True).monthly_pay(), 450_000)

    def test_tax(self):
        self.assertEqual(tax_for(100_000), 0)
        self.assertEqual(tax_for(204_750), 20_000)

    def test_payroll_run(self):
        slips = run_payroll([Manager("Cy", 6_000_000, reports=1), Employee("Ada", 1_200_000)])
        self.assertEqual([s.name for s in slips], ["Ada", "Cy"])
        self.assertEqual(total_cost(slips), 100_000 + 505_000)


if __name__ == "__main__":
    unittest.main()
